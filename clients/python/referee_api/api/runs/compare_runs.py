from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.compare_request import CompareRequest
from ...models.error_body import ErrorBody
from ...models.run_comparison import RunComparison
from ...types import Response


def _get_kwargs(
    *,
    body: CompareRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/run-comparisons",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RunComparison | None:
    if response.status_code == 200:
        response_200 = RunComparison.from_dict(response.json())

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
) -> Response[ErrorBody | RunComparison]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CompareRequest,
) -> Response[ErrorBody | RunComparison]:
    """Compares runs (seeds or settings of one experiment): per run and verifier the items, mean
    score and pass rate over the steps asked for; per verifier across the runs, the mean and the
    interquartile mean of the runs' mean scores and their pass rate, with percentile-bootstrap
    95% intervals over runs (as `rliable` aggregates runs).

    Args:
        body (CompareRequest): Runs to compare, over which steps.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RunComparison]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CompareRequest,
) -> ErrorBody | RunComparison | None:
    """Compares runs (seeds or settings of one experiment): per run and verifier the items, mean
    score and pass rate over the steps asked for; per verifier across the runs, the mean and the
    interquartile mean of the runs' mean scores and their pass rate, with percentile-bootstrap
    95% intervals over runs (as `rliable` aggregates runs).

    Args:
        body (CompareRequest): Runs to compare, over which steps.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RunComparison
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CompareRequest,
) -> Response[ErrorBody | RunComparison]:
    """Compares runs (seeds or settings of one experiment): per run and verifier the items, mean
    score and pass rate over the steps asked for; per verifier across the runs, the mean and the
    interquartile mean of the runs' mean scores and their pass rate, with percentile-bootstrap
    95% intervals over runs (as `rliable` aggregates runs).

    Args:
        body (CompareRequest): Runs to compare, over which steps.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RunComparison]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CompareRequest,
) -> ErrorBody | RunComparison | None:
    """Compares runs (seeds or settings of one experiment): per run and verifier the items, mean
    score and pass rate over the steps asked for; per verifier across the runs, the mean and the
    interquartile mean of the runs' mean scores and their pass rate, with percentile-bootstrap
    95% intervals over runs (as `rliable` aggregates runs).

    Args:
        body (CompareRequest): Runs to compare, over which steps.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RunComparison
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
