from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.overturn_list import OverturnList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    verifier: str,
    *,
    label: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["label"] = label

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/noise/{verifier}/appeals".format(
            verifier=quote(str(verifier), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | OverturnList | None:
    if response.status_code == 200:
        response_200 = OverturnList.from_dict(response.json())

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
) -> Response[ErrorBody | OverturnList]:
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
    label: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Response[ErrorBody | OverturnList]:
    """Lists the verdicts that appeals overturned, newest first, with both verdicts and the input.

    Args:
        verifier (str):
        label (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | OverturnList]
    """

    kwargs = _get_kwargs(
        verifier=verifier,
        label=label,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    verifier: str,
    *,
    client: AuthenticatedClient,
    label: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> ErrorBody | OverturnList | None:
    """Lists the verdicts that appeals overturned, newest first, with both verdicts and the input.

    Args:
        verifier (str):
        label (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | OverturnList
    """

    return sync_detailed(
        verifier=verifier,
        client=client,
        label=label,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    verifier: str,
    *,
    client: AuthenticatedClient,
    label: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Response[ErrorBody | OverturnList]:
    """Lists the verdicts that appeals overturned, newest first, with both verdicts and the input.

    Args:
        verifier (str):
        label (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | OverturnList]
    """

    kwargs = _get_kwargs(
        verifier=verifier,
        label=label,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    verifier: str,
    *,
    client: AuthenticatedClient,
    label: str | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> ErrorBody | OverturnList | None:
    """Lists the verdicts that appeals overturned, newest first, with both verdicts and the input.

    Args:
        verifier (str):
        label (str | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | OverturnList
    """

    return (
        await asyncio_detailed(
            verifier=verifier,
            client=client,
            label=label,
            limit=limit,
        )
    ).parsed
