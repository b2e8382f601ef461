from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.sample_list import SampleList
from ...models.status import Status
from ...types import UNSET, Response, Unset


def _get_kwargs(
    run: str,
    *,
    verifier: str | Unset = UNSET,
    status: Status | Unset = UNSET,
    prompt_id: str | Unset = UNSET,
    from_step: int | Unset = UNSET,
    to_step: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["verifier"] = verifier

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status

    params["status"] = json_status

    params["prompt_id"] = prompt_id

    params["from_step"] = from_step

    params["to_step"] = to_step

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/runs/{run}/samples".format(
            run=quote(str(run), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | SampleList | None:
    if response.status_code == 200:
        response_200 = SampleList.from_dict(response.json())

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
) -> Response[ErrorBody | SampleList]:
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
    verifier: str | Unset = UNSET,
    status: Status | Unset = UNSET,
    prompt_id: str | Unset = UNSET,
    from_step: int | Unset = UNSET,
    to_step: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[ErrorBody | SampleList]:
    """Lists the items of a run kept with their text (`[runs.samples]`, off by default): the
    response, the verifier's extracted answer and the verdict's details, with the item's tags,
    status, score and latency; latest step first. Filter by verifier, status, prompt and steps.

    Args:
        run (str):
        verifier (str | Unset):
        status (Status | Unset): The outcome class of one scored item.

            Trainers use it to tell a wrong answer (`incorrect`) from an item the scorer could not
            judge
            (`invalid_input`, `internal_error`), and to mask the latter instead of training on it.
        prompt_id (str | Unset):
        from_step (int | Unset):
        to_step (int | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SampleList]
    """

    kwargs = _get_kwargs(
        run=run,
        verifier=verifier,
        status=status,
        prompt_id=prompt_id,
        from_step=from_step,
        to_step=to_step,
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
    verifier: str | Unset = UNSET,
    status: Status | Unset = UNSET,
    prompt_id: str | Unset = UNSET,
    from_step: int | Unset = UNSET,
    to_step: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> ErrorBody | SampleList | None:
    """Lists the items of a run kept with their text (`[runs.samples]`, off by default): the
    response, the verifier's extracted answer and the verdict's details, with the item's tags,
    status, score and latency; latest step first. Filter by verifier, status, prompt and steps.

    Args:
        run (str):
        verifier (str | Unset):
        status (Status | Unset): The outcome class of one scored item.

            Trainers use it to tell a wrong answer (`incorrect`) from an item the scorer could not
            judge
            (`invalid_input`, `internal_error`), and to mask the latter instead of training on it.
        prompt_id (str | Unset):
        from_step (int | Unset):
        to_step (int | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SampleList
    """

    return sync_detailed(
        run=run,
        client=client,
        verifier=verifier,
        status=status,
        prompt_id=prompt_id,
        from_step=from_step,
        to_step=to_step,
        limit=limit,
        offset=offset,
    ).parsed


async def asyncio_detailed(
    run: str,
    *,
    client: AuthenticatedClient,
    verifier: str | Unset = UNSET,
    status: Status | Unset = UNSET,
    prompt_id: str | Unset = UNSET,
    from_step: int | Unset = UNSET,
    to_step: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[ErrorBody | SampleList]:
    """Lists the items of a run kept with their text (`[runs.samples]`, off by default): the
    response, the verifier's extracted answer and the verdict's details, with the item's tags,
    status, score and latency; latest step first. Filter by verifier, status, prompt and steps.

    Args:
        run (str):
        verifier (str | Unset):
        status (Status | Unset): The outcome class of one scored item.

            Trainers use it to tell a wrong answer (`incorrect`) from an item the scorer could not
            judge
            (`invalid_input`, `internal_error`), and to mask the latter instead of training on it.
        prompt_id (str | Unset):
        from_step (int | Unset):
        to_step (int | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SampleList]
    """

    kwargs = _get_kwargs(
        run=run,
        verifier=verifier,
        status=status,
        prompt_id=prompt_id,
        from_step=from_step,
        to_step=to_step,
        limit=limit,
        offset=offset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run: str,
    *,
    client: AuthenticatedClient,
    verifier: str | Unset = UNSET,
    status: Status | Unset = UNSET,
    prompt_id: str | Unset = UNSET,
    from_step: int | Unset = UNSET,
    to_step: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> ErrorBody | SampleList | None:
    """Lists the items of a run kept with their text (`[runs.samples]`, off by default): the
    response, the verifier's extracted answer and the verdict's details, with the item's tags,
    status, score and latency; latest step first. Filter by verifier, status, prompt and steps.

    Args:
        run (str):
        verifier (str | Unset):
        status (Status | Unset): The outcome class of one scored item.

            Trainers use it to tell a wrong answer (`incorrect`) from an item the scorer could not
            judge
            (`invalid_input`, `internal_error`), and to mask the latter instead of training on it.
        prompt_id (str | Unset):
        from_step (int | Unset):
        to_step (int | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SampleList
    """

    return (
        await asyncio_detailed(
            run=run,
            client=client,
            verifier=verifier,
            status=status,
            prompt_id=prompt_id,
            from_step=from_step,
            to_step=to_step,
            limit=limit,
            offset=offset,
        )
    ).parsed
