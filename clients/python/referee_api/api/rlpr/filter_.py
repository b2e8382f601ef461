from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.filter_answer import FilterAnswer
from ...models.filter_request import FilterRequest
from ...types import Response


def _get_kwargs(
    *,
    body: FilterRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/reward-models/rlpr/filter",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | FilterAnswer | None:
    if response.status_code == 200:
        response_200 = FilterAnswer.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

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
) -> Response[ErrorBody | FilterAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: FilterRequest,
) -> Response[ErrorBody | FilterAnswer]:
    """Decides one generation round of a training step: each group's reward std (N − 1) and whether
    it reaches β times the run's moving average, fixed for every round of the step. A step closes
    at a round with `close` (the default) or at round 1 of the next step, and its mean std over
    all its rounds then moves the average once. The run's first step fixes its settings; its
    state is kept in the database. A retried round (same `step`, `round` and body) gets the
    stored answer; another body for an answered round is a 409.

    Args:
        body (FilterRequest): The body of `POST /v1/reward-models/rlpr/filter`: one generation
            round of a training step.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FilterAnswer]
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
    body: FilterRequest,
) -> ErrorBody | FilterAnswer | None:
    """Decides one generation round of a training step: each group's reward std (N − 1) and whether
    it reaches β times the run's moving average, fixed for every round of the step. A step closes
    at a round with `close` (the default) or at round 1 of the next step, and its mean std over
    all its rounds then moves the average once. The run's first step fixes its settings; its
    state is kept in the database. A retried round (same `step`, `round` and body) gets the
    stored answer; another body for an answered round is a 409.

    Args:
        body (FilterRequest): The body of `POST /v1/reward-models/rlpr/filter`: one generation
            round of a training step.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FilterAnswer
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: FilterRequest,
) -> Response[ErrorBody | FilterAnswer]:
    """Decides one generation round of a training step: each group's reward std (N − 1) and whether
    it reaches β times the run's moving average, fixed for every round of the step. A step closes
    at a round with `close` (the default) or at round 1 of the next step, and its mean std over
    all its rounds then moves the average once. The run's first step fixes its settings; its
    state is kept in the database. A retried round (same `step`, `round` and body) gets the
    stored answer; another body for an answered round is a 409.

    Args:
        body (FilterRequest): The body of `POST /v1/reward-models/rlpr/filter`: one generation
            round of a training step.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FilterAnswer]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: FilterRequest,
) -> ErrorBody | FilterAnswer | None:
    """Decides one generation round of a training step: each group's reward std (N − 1) and whether
    it reaches β times the run's moving average, fixed for every round of the step. A step closes
    at a round with `close` (the default) or at round 1 of the next step, and its mean std over
    all its rounds then moves the average once. The run's first step fixes its settings; its
    state is kept in the database. A retried round (same `step`, `round` and body) gets the
    stored answer; another body for an answered round is a 409.

    Args:
        body (FilterRequest): The body of `POST /v1/reward-models/rlpr/filter`: one generation
            round of a training step.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FilterAnswer
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
