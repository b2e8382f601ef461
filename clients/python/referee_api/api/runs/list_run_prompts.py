from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.list_run_prompts_order import (
    ListRunPromptsOrder,
)
from ...models.list_run_prompts_sort import (
    ListRunPromptsSort,
)
from ...models.prompt_list import PromptList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    run: str,
    *,
    window: int | Unset = UNSET,
    half_life: float | Unset = UNSET,
    min_attempts: int | Unset = UNSET,
    min_pass_rate: float | Unset = UNSET,
    max_pass_rate: float | Unset = UNSET,
    sort: ListRunPromptsSort | Unset = UNSET,
    order: ListRunPromptsOrder | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["window"] = window

    params["half_life"] = half_life

    params["min_attempts"] = min_attempts

    params["min_pass_rate"] = min_pass_rate

    params["max_pass_rate"] = max_pass_rate

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort

    params["sort"] = json_sort

    json_order: str | Unset = UNSET
    if not isinstance(order, Unset):
        json_order = order

    params["order"] = json_order

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/runs/{run}/prompts".format(
            run=quote(str(run), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | PromptList | None:
    if response.status_code == 200:
        response_200 = PromptList.from_dict(response.json())

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
) -> Response[ErrorBody | PromptList]:
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
    window: int | Unset = UNSET,
    half_life: float | Unset = UNSET,
    min_attempts: int | Unset = UNSET,
    min_pass_rate: float | Unset = UNSET,
    max_pass_rate: float | Unset = UNSET,
    sort: ListRunPromptsSort | Unset = UNSET,
    order: ListRunPromptsOrder | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[ErrorBody | PromptList]:
    """Lists a run's prompts with their attempts, successes (`correct` verdicts) and pass rates.
    Attempts are verdicts on a response: every status but `invalid_input` and `internal_error`.

    Args:
        run (str):
        window (int | Unset):
        half_life (float | Unset):
        min_attempts (int | Unset):
        min_pass_rate (float | Unset):
        max_pass_rate (float | Unset):
        sort (ListRunPromptsSort | Unset): How prompts are sorted.
        order (ListRunPromptsOrder | Unset): Ascending or descending.
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PromptList]
    """

    kwargs = _get_kwargs(
        run=run,
        window=window,
        half_life=half_life,
        min_attempts=min_attempts,
        min_pass_rate=min_pass_rate,
        max_pass_rate=max_pass_rate,
        sort=sort,
        order=order,
        limit=limit,
        offset=offset,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    run: str,
    *,
    client: AuthenticatedClient,
    window: int | Unset = UNSET,
    half_life: float | Unset = UNSET,
    min_attempts: int | Unset = UNSET,
    min_pass_rate: float | Unset = UNSET,
    max_pass_rate: float | Unset = UNSET,
    sort: ListRunPromptsSort | Unset = UNSET,
    order: ListRunPromptsOrder | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> ErrorBody | PromptList | None:
    """Lists a run's prompts with their attempts, successes (`correct` verdicts) and pass rates.
    Attempts are verdicts on a response: every status but `invalid_input` and `internal_error`.

    Args:
        run (str):
        window (int | Unset):
        half_life (float | Unset):
        min_attempts (int | Unset):
        min_pass_rate (float | Unset):
        max_pass_rate (float | Unset):
        sort (ListRunPromptsSort | Unset): How prompts are sorted.
        order (ListRunPromptsOrder | Unset): Ascending or descending.
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PromptList
    """

    return sync_detailed(
        run=run,
        client=client,
        window=window,
        half_life=half_life,
        min_attempts=min_attempts,
        min_pass_rate=min_pass_rate,
        max_pass_rate=max_pass_rate,
        sort=sort,
        order=order,
        limit=limit,
        offset=offset,
    ).parsed


async def asyncio_detailed(
    run: str,
    *,
    client: AuthenticatedClient,
    window: int | Unset = UNSET,
    half_life: float | Unset = UNSET,
    min_attempts: int | Unset = UNSET,
    min_pass_rate: float | Unset = UNSET,
    max_pass_rate: float | Unset = UNSET,
    sort: ListRunPromptsSort | Unset = UNSET,
    order: ListRunPromptsOrder | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[ErrorBody | PromptList]:
    """Lists a run's prompts with their attempts, successes (`correct` verdicts) and pass rates.
    Attempts are verdicts on a response: every status but `invalid_input` and `internal_error`.

    Args:
        run (str):
        window (int | Unset):
        half_life (float | Unset):
        min_attempts (int | Unset):
        min_pass_rate (float | Unset):
        max_pass_rate (float | Unset):
        sort (ListRunPromptsSort | Unset): How prompts are sorted.
        order (ListRunPromptsOrder | Unset): Ascending or descending.
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PromptList]
    """

    kwargs = _get_kwargs(
        run=run,
        window=window,
        half_life=half_life,
        min_attempts=min_attempts,
        min_pass_rate=min_pass_rate,
        max_pass_rate=max_pass_rate,
        sort=sort,
        order=order,
        limit=limit,
        offset=offset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run: str,
    *,
    client: AuthenticatedClient,
    window: int | Unset = UNSET,
    half_life: float | Unset = UNSET,
    min_attempts: int | Unset = UNSET,
    min_pass_rate: float | Unset = UNSET,
    max_pass_rate: float | Unset = UNSET,
    sort: ListRunPromptsSort | Unset = UNSET,
    order: ListRunPromptsOrder | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> ErrorBody | PromptList | None:
    """Lists a run's prompts with their attempts, successes (`correct` verdicts) and pass rates.
    Attempts are verdicts on a response: every status but `invalid_input` and `internal_error`.

    Args:
        run (str):
        window (int | Unset):
        half_life (float | Unset):
        min_attempts (int | Unset):
        min_pass_rate (float | Unset):
        max_pass_rate (float | Unset):
        sort (ListRunPromptsSort | Unset): How prompts are sorted.
        order (ListRunPromptsOrder | Unset): Ascending or descending.
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PromptList
    """

    return (
        await asyncio_detailed(
            run=run,
            client=client,
            window=window,
            half_life=half_life,
            min_attempts=min_attempts,
            min_pass_rate=min_pass_rate,
            max_pass_rate=max_pass_rate,
            sort=sort,
            order=order,
            limit=limit,
            offset=offset,
        )
    ).parsed
