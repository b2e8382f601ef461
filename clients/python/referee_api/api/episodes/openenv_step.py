from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.open_env_result import OpenEnvResult
from ...models.open_env_step_request import OpenEnvStepRequest
from ...types import Response


def _get_kwargs(
    environment: str,
    *,
    body: OpenEnvStepRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/openenv/{environment}/step".format(
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
    body: OpenEnvStepRequest,
) -> Response[ErrorBody | OpenEnvResult]:
    """Takes one action in a fresh episode with the environment's default options and closes it
    (OpenEnv's stateless step).

    Args:
        environment (str):
        body (OpenEnvStepRequest): OpenEnv's stateless step: the action, and fields OpenEnv allows
            besides (ignored).

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
    body: OpenEnvStepRequest,
) -> ErrorBody | OpenEnvResult | None:
    """Takes one action in a fresh episode with the environment's default options and closes it
    (OpenEnv's stateless step).

    Args:
        environment (str):
        body (OpenEnvStepRequest): OpenEnv's stateless step: the action, and fields OpenEnv allows
            besides (ignored).

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
    body: OpenEnvStepRequest,
) -> Response[ErrorBody | OpenEnvResult]:
    """Takes one action in a fresh episode with the environment's default options and closes it
    (OpenEnv's stateless step).

    Args:
        environment (str):
        body (OpenEnvStepRequest): OpenEnv's stateless step: the action, and fields OpenEnv allows
            besides (ignored).

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
    body: OpenEnvStepRequest,
) -> ErrorBody | OpenEnvResult | None:
    """Takes one action in a fresh episode with the environment's default options and closes it
    (OpenEnv's stateless step).

    Args:
        environment (str):
        body (OpenEnvStepRequest): OpenEnv's stateless step: the action, and fields OpenEnv allows
            besides (ignored).

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
