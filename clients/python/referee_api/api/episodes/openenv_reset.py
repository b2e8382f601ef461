from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.open_env_result import OpenEnvResult
from ...models.openenv_reset_body import OpenenvResetBody
from ...types import Response


def _get_kwargs(
    environment: str,
    *,
    body: OpenenvResetBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/openenv/{environment}/reset".format(
            environment=quote(str(environment), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | OpenEnvResult | None:
    if response.status_code == 200:
        response_200 = OpenEnvResult.from_dict(response.json())

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
) -> Response[ErrorBody | OpenEnvResult]:
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
    body: OpenenvResetBody,
) -> Response[ErrorBody | OpenEnvResult]:
    """Starts an episode from the body's options, answers its first observation and closes it
    (OpenEnv's stateless reset; sessions are WebSocket connections).

    Args:
        environment (str):
        body (OpenenvResetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | OpenEnvResult]
    """

    kwargs = _get_kwargs(
        environment=environment,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    environment: str,
    *,
    client: AuthenticatedClient,
    body: OpenenvResetBody,
) -> ErrorBody | OpenEnvResult | None:
    """Starts an episode from the body's options, answers its first observation and closes it
    (OpenEnv's stateless reset; sessions are WebSocket connections).

    Args:
        environment (str):
        body (OpenenvResetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | OpenEnvResult
    """

    return sync_detailed(
        environment=environment,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    environment: str,
    *,
    client: AuthenticatedClient,
    body: OpenenvResetBody,
) -> Response[ErrorBody | OpenEnvResult]:
    """Starts an episode from the body's options, answers its first observation and closes it
    (OpenEnv's stateless reset; sessions are WebSocket connections).

    Args:
        environment (str):
        body (OpenenvResetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | OpenEnvResult]
    """

    kwargs = _get_kwargs(
        environment=environment,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    environment: str,
    *,
    client: AuthenticatedClient,
    body: OpenenvResetBody,
) -> ErrorBody | OpenEnvResult | None:
    """Starts an episode from the body's options, answers its first observation and closes it
    (OpenEnv's stateless reset; sessions are WebSocket connections).

    Args:
        environment (str):
        body (OpenenvResetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | OpenEnvResult
    """

    return (
        await asyncio_detailed(
            environment=environment,
            client=client,
            body=body,
        )
    ).parsed
