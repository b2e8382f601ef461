from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.open_env_health import OpenEnvHealth
from ...types import Response


def _get_kwargs(
    environment: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/openenv/{environment}/health".format(
            environment=quote(str(environment), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | OpenEnvHealth | None:
    if response.status_code == 200:
        response_200 = OpenEnvHealth.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

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
) -> Response[ErrorBody | OpenEnvHealth]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    environment: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorBody | OpenEnvHealth]:
    """Whether the environment's server is up (OpenEnv's health route).

    Args:
        environment (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | OpenEnvHealth]
    """

    kwargs = _get_kwargs(
        environment=environment,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    environment: str,
    *,
    client: AuthenticatedClient,
) -> ErrorBody | OpenEnvHealth | None:
    """Whether the environment's server is up (OpenEnv's health route).

    Args:
        environment (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | OpenEnvHealth
    """

    return sync_detailed(
        environment=environment,
        client=client,
    ).parsed


async def asyncio_detailed(
    environment: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorBody | OpenEnvHealth]:
    """Whether the environment's server is up (OpenEnv's health route).

    Args:
        environment (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | OpenEnvHealth]
    """

    kwargs = _get_kwargs(
        environment=environment,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    environment: str,
    *,
    client: AuthenticatedClient,
) -> ErrorBody | OpenEnvHealth | None:
    """Whether the environment's server is up (OpenEnv's health route).

    Args:
        environment (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | OpenEnvHealth
    """

    return (
        await asyncio_detailed(
            environment=environment,
            client=client,
        )
    ).parsed
