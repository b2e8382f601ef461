from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.reward_request import RewardRequest
from ...models.reward_response import RewardResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: RewardRequest,
    verifier: str | Unset = UNSET,
    label_field: str | Unset = UNSET,
    run: str | Unset = UNSET,
    step: int | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["verifier"] = verifier

    params["label_field"] = label_field

    params["run"] = run

    params["step"] = step

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/get_reward",
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RewardResponse | None:
    if response.status_code == 200:
        response_200 = RewardResponse.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

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
) -> Response[ErrorBody | RewardResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: RewardRequest,
    verifier: str | Unset = UNSET,
    label_field: str | Unset = UNSET,
    run: str | Unset = UNSET,
    step: int | Unset = UNSET,
) -> Response[ErrorBody | RewardResponse]:
    """Scores rollouts for OpenRLHF: `--reward.remote_url http://HOST:PORT/get_reward` with
    `--data.label_key KEY` (OpenRLHF >= 0.10.2), or `--remote_rm_url` with `--label_key`
    (earlier versions).

     A request that finds no room waits for it, in arrival order, until the request deadline,
    instead of being refused: OpenRLHF retries a failed request a few times without reading
    `Retry-After` and then drops the reward.

    Args:
        verifier (str | Unset):
        label_field (str | Unset):
        run (str | Unset):
        step (int | Unset):
        body (RewardRequest): What OpenRLHF sends. Fields other than these (some versions send
            more) are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RewardResponse]
    """

    kwargs = _get_kwargs(
        body=body,
        verifier=verifier,
        label_field=label_field,
        run=run,
        step=step,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: RewardRequest,
    verifier: str | Unset = UNSET,
    label_field: str | Unset = UNSET,
    run: str | Unset = UNSET,
    step: int | Unset = UNSET,
) -> ErrorBody | RewardResponse | None:
    """Scores rollouts for OpenRLHF: `--reward.remote_url http://HOST:PORT/get_reward` with
    `--data.label_key KEY` (OpenRLHF >= 0.10.2), or `--remote_rm_url` with `--label_key`
    (earlier versions).

     A request that finds no room waits for it, in arrival order, until the request deadline,
    instead of being refused: OpenRLHF retries a failed request a few times without reading
    `Retry-After` and then drops the reward.

    Args:
        verifier (str | Unset):
        label_field (str | Unset):
        run (str | Unset):
        step (int | Unset):
        body (RewardRequest): What OpenRLHF sends. Fields other than these (some versions send
            more) are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RewardResponse
    """

    return sync_detailed(
        client=client,
        body=body,
        verifier=verifier,
        label_field=label_field,
        run=run,
        step=step,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: RewardRequest,
    verifier: str | Unset = UNSET,
    label_field: str | Unset = UNSET,
    run: str | Unset = UNSET,
    step: int | Unset = UNSET,
) -> Response[ErrorBody | RewardResponse]:
    """Scores rollouts for OpenRLHF: `--reward.remote_url http://HOST:PORT/get_reward` with
    `--data.label_key KEY` (OpenRLHF >= 0.10.2), or `--remote_rm_url` with `--label_key`
    (earlier versions).

     A request that finds no room waits for it, in arrival order, until the request deadline,
    instead of being refused: OpenRLHF retries a failed request a few times without reading
    `Retry-After` and then drops the reward.

    Args:
        verifier (str | Unset):
        label_field (str | Unset):
        run (str | Unset):
        step (int | Unset):
        body (RewardRequest): What OpenRLHF sends. Fields other than these (some versions send
            more) are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RewardResponse]
    """

    kwargs = _get_kwargs(
        body=body,
        verifier=verifier,
        label_field=label_field,
        run=run,
        step=step,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: RewardRequest,
    verifier: str | Unset = UNSET,
    label_field: str | Unset = UNSET,
    run: str | Unset = UNSET,
    step: int | Unset = UNSET,
) -> ErrorBody | RewardResponse | None:
    """Scores rollouts for OpenRLHF: `--reward.remote_url http://HOST:PORT/get_reward` with
    `--data.label_key KEY` (OpenRLHF >= 0.10.2), or `--remote_rm_url` with `--label_key`
    (earlier versions).

     A request that finds no room waits for it, in arrival order, until the request deadline,
    instead of being refused: OpenRLHF retries a failed request a few times without reading
    `Retry-After` and then drops the reward.

    Args:
        verifier (str | Unset):
        label_field (str | Unset):
        run (str | Unset):
        step (int | Unset):
        body (RewardRequest): What OpenRLHF sends. Fields other than these (some versions send
            more) are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RewardResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            verifier=verifier,
            label_field=label_field,
            run=run,
            step=step,
        )
    ).parsed
