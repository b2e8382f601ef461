from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.job_from_path import JobFromPath
from ...models.job_status import JobStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: JobFromPath,
    chunk_size: int | Unset = UNSET,
    priority: int | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["chunk_size"] = chunk_size

    params["priority"] = priority

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/jobs",
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | JobStatus | None:
    if response.status_code == 201:
        response_201 = JobStatus.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 408:
        response_408 = ErrorBody.from_dict(response.json())

        return response_408

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
) -> Response[ErrorBody | JobStatus]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: JobFromPath,
    chunk_size: int | Unset = UNSET,
    priority: int | Unset = UNSET,
) -> Response[ErrorBody | JobStatus]:
    """Submits a batch scoring job: a JSONL body (one score item per line, as in `POST /v1/score`),
    or a JSON `{"path": ...}` naming a file on the server. The job is stored, split into chunks
    and scored by the workers of every replica sharing the database; a malformed line becomes
    that item's `invalid_input` result.

    Args:
        chunk_size (int | Unset):
        priority (int | Unset):
        body (JobFromPath): A JSONL file on the server to score, for servers that allow paths
            (`jobs.allowed_paths`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | JobStatus]
    """

    kwargs = _get_kwargs(
        body=body,
        chunk_size=chunk_size,
        priority=priority,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: JobFromPath,
    chunk_size: int | Unset = UNSET,
    priority: int | Unset = UNSET,
) -> ErrorBody | JobStatus | None:
    """Submits a batch scoring job: a JSONL body (one score item per line, as in `POST /v1/score`),
    or a JSON `{"path": ...}` naming a file on the server. The job is stored, split into chunks
    and scored by the workers of every replica sharing the database; a malformed line becomes
    that item's `invalid_input` result.

    Args:
        chunk_size (int | Unset):
        priority (int | Unset):
        body (JobFromPath): A JSONL file on the server to score, for servers that allow paths
            (`jobs.allowed_paths`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | JobStatus
    """

    return sync_detailed(
        client=client,
        body=body,
        chunk_size=chunk_size,
        priority=priority,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: JobFromPath,
    chunk_size: int | Unset = UNSET,
    priority: int | Unset = UNSET,
) -> Response[ErrorBody | JobStatus]:
    """Submits a batch scoring job: a JSONL body (one score item per line, as in `POST /v1/score`),
    or a JSON `{"path": ...}` naming a file on the server. The job is stored, split into chunks
    and scored by the workers of every replica sharing the database; a malformed line becomes
    that item's `invalid_input` result.

    Args:
        chunk_size (int | Unset):
        priority (int | Unset):
        body (JobFromPath): A JSONL file on the server to score, for servers that allow paths
            (`jobs.allowed_paths`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | JobStatus]
    """

    kwargs = _get_kwargs(
        body=body,
        chunk_size=chunk_size,
        priority=priority,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: JobFromPath,
    chunk_size: int | Unset = UNSET,
    priority: int | Unset = UNSET,
) -> ErrorBody | JobStatus | None:
    """Submits a batch scoring job: a JSONL body (one score item per line, as in `POST /v1/score`),
    or a JSON `{"path": ...}` naming a file on the server. The job is stored, split into chunks
    and scored by the workers of every replica sharing the database; a malformed line becomes
    that item's `invalid_input` result.

    Args:
        chunk_size (int | Unset):
        priority (int | Unset):
        body (JobFromPath): A JSONL file on the server to score, for servers that allow paths
            (`jobs.allowed_paths`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | JobStatus
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            chunk_size=chunk_size,
            priority=priority,
        )
    ).parsed
