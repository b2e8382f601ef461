from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.noise_status import NoiseStatus
from ...models.step_update import StepUpdate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    verifier: str,
    *,
    body: StepUpdate,
    label: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["label"] = label

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/noise/{verifier}/step".format(
            verifier=quote(str(verifier), safe=""),
        ),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | NoiseStatus | None:
    if response.status_code == 200:
        response_200 = NoiseStatus.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | NoiseStatus]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    verifier: str,
    *,
    client: AuthenticatedClient,
    body: StepUpdate,
    label: str | Unset = UNSET,
) -> Response[ErrorBody | NoiseStatus]:
    """Sets a noise model's current training step, which count windows (`window` in the settings)
    count back from. Idempotent: the step only moves forward, so a retried call is harmless.

    Args:
        verifier (str):
        label (str | Unset):
        body (StepUpdate): The trainer's current step: the body of `PUT
            /v1/noise/{verifier}/step`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | NoiseStatus]
    """

    kwargs = _get_kwargs(
        verifier=verifier,
        body=body,
        label=label,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    verifier: str,
    *,
    client: AuthenticatedClient,
    body: StepUpdate,
    label: str | Unset = UNSET,
) -> ErrorBody | NoiseStatus | None:
    """Sets a noise model's current training step, which count windows (`window` in the settings)
    count back from. Idempotent: the step only moves forward, so a retried call is harmless.

    Args:
        verifier (str):
        label (str | Unset):
        body (StepUpdate): The trainer's current step: the body of `PUT
            /v1/noise/{verifier}/step`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | NoiseStatus
    """

    return sync_detailed(
        verifier=verifier,
        client=client,
        body=body,
        label=label,
    ).parsed


async def asyncio_detailed(
    verifier: str,
    *,
    client: AuthenticatedClient,
    body: StepUpdate,
    label: str | Unset = UNSET,
) -> Response[ErrorBody | NoiseStatus]:
    """Sets a noise model's current training step, which count windows (`window` in the settings)
    count back from. Idempotent: the step only moves forward, so a retried call is harmless.

    Args:
        verifier (str):
        label (str | Unset):
        body (StepUpdate): The trainer's current step: the body of `PUT
            /v1/noise/{verifier}/step`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | NoiseStatus]
    """

    kwargs = _get_kwargs(
        verifier=verifier,
        body=body,
        label=label,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    verifier: str,
    *,
    client: AuthenticatedClient,
    body: StepUpdate,
    label: str | Unset = UNSET,
) -> ErrorBody | NoiseStatus | None:
    """Sets a noise model's current training step, which count windows (`window` in the settings)
    count back from. Idempotent: the step only moves forward, so a retried call is harmless.

    Args:
        verifier (str):
        label (str | Unset):
        body (StepUpdate): The trainer's current step: the body of `PUT
            /v1/noise/{verifier}/step`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | NoiseStatus
    """

    return (
        await asyncio_detailed(
            verifier=verifier,
            client=client,
            body=body,
            label=label,
        )
    ).parsed
