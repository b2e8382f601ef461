from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.run_stats import RunStats
from ...types import UNSET, Response, Unset


def _get_kwargs(
    run: str,
    *,
    from_step: int | Unset = UNSET,
    to_step: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["from_step"] = from_step

    params["to_step"] = to_step

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/runs/{run}/stats".format(
            run=quote(str(run), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RunStats | None:
    if response.status_code == 200:
        response_200 = RunStats.from_dict(response.json())

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
) -> Response[ErrorBody | RunStats]:
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
    from_step: int | Unset = UNSET,
    to_step: int | Unset = UNSET,
) -> Response[ErrorBody | RunStats]:
    """A run's statistics over a range of steps: per step and verifier the reward distribution
    (mean, standard deviation, quantiles, histogram), the status mix with the rates of
    `internal_error`, `timeout` and `unparseable`, the pass rate and latency; per step the groups'
    pass@k and mean@k; and per verifier over the range, the mean and interquartile mean with
    percentile-bootstrap 95% intervals.

    Args:
        run (str):
        from_step (int | Unset):
        to_step (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RunStats]
    """

    kwargs = _get_kwargs(
        run=run,
        from_step=from_step,
        to_step=to_step,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    run: str,
    *,
    client: AuthenticatedClient,
    from_step: int | Unset = UNSET,
    to_step: int | Unset = UNSET,
) -> ErrorBody | RunStats | None:
    """A run's statistics over a range of steps: per step and verifier the reward distribution
    (mean, standard deviation, quantiles, histogram), the status mix with the rates of
    `internal_error`, `timeout` and `unparseable`, the pass rate and latency; per step the groups'
    pass@k and mean@k; and per verifier over the range, the mean and interquartile mean with
    percentile-bootstrap 95% intervals.

    Args:
        run (str):
        from_step (int | Unset):
        to_step (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RunStats
    """

    return sync_detailed(
        run=run,
        client=client,
        from_step=from_step,
        to_step=to_step,
    ).parsed


async def asyncio_detailed(
    run: str,
    *,
    client: AuthenticatedClient,
    from_step: int | Unset = UNSET,
    to_step: int | Unset = UNSET,
) -> Response[ErrorBody | RunStats]:
    """A run's statistics over a range of steps: per step and verifier the reward distribution
    (mean, standard deviation, quantiles, histogram), the status mix with the rates of
    `internal_error`, `timeout` and `unparseable`, the pass rate and latency; per step the groups'
    pass@k and mean@k; and per verifier over the range, the mean and interquartile mean with
    percentile-bootstrap 95% intervals.

    Args:
        run (str):
        from_step (int | Unset):
        to_step (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RunStats]
    """

    kwargs = _get_kwargs(
        run=run,
        from_step=from_step,
        to_step=to_step,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run: str,
    *,
    client: AuthenticatedClient,
    from_step: int | Unset = UNSET,
    to_step: int | Unset = UNSET,
) -> ErrorBody | RunStats | None:
    """A run's statistics over a range of steps: per step and verifier the reward distribution
    (mean, standard deviation, quantiles, histogram), the status mix with the rates of
    `internal_error`, `timeout` and `unparseable`, the pass rate and latency; per step the groups'
    pass@k and mean@k; and per verifier over the range, the mean and interquartile mean with
    percentile-bootstrap 95% intervals.

    Args:
        run (str):
        from_step (int | Unset):
        to_step (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RunStats
    """

    return (
        await asyncio_detailed(
            run=run,
            client=client,
            from_step=from_step,
            to_step=to_step,
        )
    ).parsed
