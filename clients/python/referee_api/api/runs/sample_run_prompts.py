from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.sample_request import SampleRequest
from ...models.sample_response import SampleResponse
from ...types import Response


def _get_kwargs(
    run: str,
    *,
    body: SampleRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/runs/{run}/sample".format(
            run=quote(str(run), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | SampleResponse | None:
    if response.status_code == 200:
        response_200 = SampleResponse.from_dict(response.json())

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
) -> Response[ErrorBody | SampleResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    run: str,
    *,
    client: AuthenticatedClient,
    body: SampleRequest,
) -> Response[ErrorBody | SampleResponse]:
    """Decides which candidate prompts to train on under a named policy, from the run's pass rates:
    `dapo` (drop prompts whose last group was all-correct or all-wrong), `band` (keep a pass-rate
    band) or `difficulty` (weights `p (1 - p)`, optionally drawing a sample). Prompts the run has
    not scored are kept (`dapo`, `band`) or get the prior's weight (`difficulty`).

    Args:
        run (str):
        body (SampleRequest): Candidate prompts and the policy to decide on them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SampleResponse]
    """

    kwargs = _get_kwargs(
        run=run,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    run: str,
    *,
    client: AuthenticatedClient,
    body: SampleRequest,
) -> ErrorBody | SampleResponse | None:
    """Decides which candidate prompts to train on under a named policy, from the run's pass rates:
    `dapo` (drop prompts whose last group was all-correct or all-wrong), `band` (keep a pass-rate
    band) or `difficulty` (weights `p (1 - p)`, optionally drawing a sample). Prompts the run has
    not scored are kept (`dapo`, `band`) or get the prior's weight (`difficulty`).

    Args:
        run (str):
        body (SampleRequest): Candidate prompts and the policy to decide on them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SampleResponse
    """

    return sync_detailed(
        run=run,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    run: str,
    *,
    client: AuthenticatedClient,
    body: SampleRequest,
) -> Response[ErrorBody | SampleResponse]:
    """Decides which candidate prompts to train on under a named policy, from the run's pass rates:
    `dapo` (drop prompts whose last group was all-correct or all-wrong), `band` (keep a pass-rate
    band) or `difficulty` (weights `p (1 - p)`, optionally drawing a sample). Prompts the run has
    not scored are kept (`dapo`, `band`) or get the prior's weight (`difficulty`).

    Args:
        run (str):
        body (SampleRequest): Candidate prompts and the policy to decide on them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SampleResponse]
    """

    kwargs = _get_kwargs(
        run=run,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run: str,
    *,
    client: AuthenticatedClient,
    body: SampleRequest,
) -> ErrorBody | SampleResponse | None:
    """Decides which candidate prompts to train on under a named policy, from the run's pass rates:
    `dapo` (drop prompts whose last group was all-correct or all-wrong), `band` (keep a pass-rate
    band) or `difficulty` (weights `p (1 - p)`, optionally drawing a sample). Prompts the run has
    not scored are kept (`dapo`, `band`) or get the prior's weight (`difficulty`).

    Args:
        run (str):
        body (SampleRequest): Candidate prompts and the policy to decide on them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SampleResponse
    """

    return (
        await asyncio_detailed(
            run=run,
            client=client,
            body=body,
        )
    ).parsed
