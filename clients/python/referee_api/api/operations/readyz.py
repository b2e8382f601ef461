from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.probe_status import ProbeStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    verbose: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["verbose"] = verbose

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/readyz",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | ProbeStatus | None:
    if response.status_code == 200:
        response_200 = ProbeStatus.from_dict(response.json())

        return response_200

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | ProbeStatus]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    verbose: str | Unset = UNSET,
) -> Response[ErrorBody | ProbeStatus]:
    """Readiness: 200 when the server takes traffic; 503 while starting, while draining for
    shutdown, or when the database does not answer. A language the `code` verifier cannot run
    does not make the server unready (its items are answered `invalid_input` with the reason);
    `?verbose` lists it.

    Args:
        verbose (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ProbeStatus]
    """

    kwargs = _get_kwargs(
        verbose=verbose,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    verbose: str | Unset = UNSET,
) -> ErrorBody | ProbeStatus | None:
    """Readiness: 200 when the server takes traffic; 503 while starting, while draining for
    shutdown, or when the database does not answer. A language the `code` verifier cannot run
    does not make the server unready (its items are answered `invalid_input` with the reason);
    `?verbose` lists it.

    Args:
        verbose (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ProbeStatus
    """

    return sync_detailed(
        client=client,
        verbose=verbose,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    verbose: str | Unset = UNSET,
) -> Response[ErrorBody | ProbeStatus]:
    """Readiness: 200 when the server takes traffic; 503 while starting, while draining for
    shutdown, or when the database does not answer. A language the `code` verifier cannot run
    does not make the server unready (its items are answered `invalid_input` with the reason);
    `?verbose` lists it.

    Args:
        verbose (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ProbeStatus]
    """

    kwargs = _get_kwargs(
        verbose=verbose,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    verbose: str | Unset = UNSET,
) -> ErrorBody | ProbeStatus | None:
    """Readiness: 200 when the server takes traffic; 503 while starting, while draining for
    shutdown, or when the database does not answer. A language the `code` verifier cannot run
    does not make the server unready (its items are answered `invalid_input` with the reason);
    `?verbose` lists it.

    Args:
        verbose (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ProbeStatus
    """

    return (
        await asyncio_detailed(
            client=client,
            verbose=verbose,
        )
    ).parsed
