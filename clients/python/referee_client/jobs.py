"""Batch jobs over a [`Referee`][referee_client.Referee] client: upload a JSONL file, follow its
progress, stream its results.

Statuses are the generated model `JobStatus` and cancelling goes through the generated client
(`referee_api.api.jobs`); the upload and the results are NDJSON, which the generator cannot
express, so they are written here on the same connections, with the client's retries on 429/503
that honour `Retry-After`.

>>> with Referee("http://127.0.0.1:8080") as referee:
...     job = referee.jobs.submit("rollouts.jsonl")
...     referee.jobs.wait(job.id, on_progress=lambda s: print(s.scored_items, "/", s.total_items))
...     for result in referee.jobs.results(job.id):
...         print(result["index"], result["score"])
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import quote

import httpx
from referee_api import AuthenticatedClient
from referee_api.api.jobs import cancel as cancel_job
from referee_api.models.job_status import JobStatus

from .client import RETRY_STATUSES, Item, RefereeError, Result, _error, as_json

if TYPE_CHECKING:
    from .client import AsyncReferee, Referee

__all__ = ["FINISHED", "AsyncJobs", "JobSource", "JobStatus", "Jobs"]

#: States after which a job changes no more.
FINISHED = frozenset({"done", "cancelled"})

#: What `submit` uploads: a path of a JSONL file (one score item per line), the file's bytes,
#: or the items themselves (dicts or generated models), written one per line.
JobSource = str | os.PathLike[str] | bytes | Iterable[Item]

_CHUNK_BYTES = 1 << 20


def _ndjson(items: Iterable[Item]) -> bytes:
    return b"".join(json.dumps(as_json(item), separators=(",", ":")).encode() + b"\n" for item in items)


def _upload_bytes(source: bytes | Iterable[Item]) -> bytes:
    return source if isinstance(source, bytes) else _ndjson(source)


def _upload_kwargs(chunk_size: int | None) -> dict[str, Any]:
    params = {} if chunk_size is None else {"chunk_size": str(chunk_size)}
    return {"params": params, "headers": {"content-type": "application/x-ndjson"}}


def _file_chunks(path: str | os.PathLike[str]) -> Iterator[bytes]:
    with open(path, "rb") as file:
        while chunk := file.read(_CHUNK_BYTES):
            yield chunk


class Jobs:
    """The jobs of one client (`referee.jobs`). Thread-safe as the client is."""

    def __init__(self, client: Referee) -> None:
        self._client = client
        self._http = client.api.get_httpx_client()

    def _request(self, method: str, path: str, *, expect: int, **kwargs: Any) -> httpx.Response:
        """One request with the client's retries on 429/503 and on failed connections.

        `content`, when callable, is called for each attempt (a file is read anew)."""
        policy = self._client.policy
        attempt = 0
        while True:
            body = kwargs.get("content")
            attempt_kwargs = {**kwargs, "content": body()} if callable(body) else kwargs
            try:
                response = self._http.request(method, path, **attempt_kwargs)
            except httpx.TimeoutException as e:
                raise RefereeError(f"request timed out: {e}") from e
            except httpx.TransportError as e:
                if attempt >= policy.max_retries:
                    raise RefereeError(f"request failed: {e}") from e
                attempt += 1
                time.sleep(policy.wait(attempt, None))
                continue
            if response.status_code in RETRY_STATUSES and attempt < policy.max_retries:
                attempt += 1
                time.sleep(policy.wait(attempt, response))
                continue
            if response.status_code != expect:
                raise _error(response)
            return response

    def submit(self, source: JobSource, *, chunk_size: int | None = None) -> JobStatus:
        """Uploads score items as a job (`POST /v1/jobs`) and returns its status (`queued`).

        A line of the file that is not a valid item becomes that item's `invalid_input` result;
        an upload with no items is refused (422, raised as `RefereeError`)."""
        content: Callable[[], Any]
        if isinstance(source, (str, os.PathLike)):
            path = source
            content = lambda: _file_chunks(path)
        else:
            data = _upload_bytes(source)
            content = lambda: data
        response = self._request("POST", "/v1/jobs", expect=201, content=content, **_upload_kwargs(chunk_size))
        return JobStatus.from_dict(response.json())

    def status(self, job_id: str) -> JobStatus:
        """`GET /v1/jobs/{id}`: the job's state and progress."""
        # Polled: sent with the retries, parsed into the generated model.
        response = self._request("GET", f"/v1/jobs/{quote(job_id, safe='')}", expect=200)
        return JobStatus.from_dict(response.json())

    def follow(self, job_id: str, *, poll_interval: float = 1.0) -> Iterator[JobStatus]:
        """The job's status every `poll_interval` seconds, until it is `done` or `cancelled`
        (the last status yielded)."""
        while True:
            status = self.status(job_id)
            yield status
            if status.state in FINISHED:
                return
            time.sleep(poll_interval)

    def wait(
        self,
        job_id: str,
        *,
        poll_interval: float = 1.0,
        timeout: float | None = None,
        on_progress: Callable[[JobStatus], None] | None = None,
    ) -> JobStatus:
        """Waits until the job is finished and returns its last status; `on_progress` sees every
        status polled. Raises `RefereeError` if `timeout` seconds pass first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for status in self.follow(job_id, poll_interval=poll_interval):
            if on_progress is not None:
                on_progress(status)
            if status.state in FINISHED:
                return status
            if deadline is not None and time.monotonic() >= deadline:
                raise RefereeError(f"job {job_id} is still {status.state} after {timeout} s")
        raise RefereeError(f"job {job_id} stopped reporting")  # follow ends only at a finished state

    def results(self, job_id: str) -> Iterator[Result]:
        """Streams the results written so far (`GET /v1/jobs/{id}/results`), in input order,
        each with its item's position as `index`; a finished job's stream holds every item once.
        Lines are parsed as they arrive, so a large job is never held in memory at once."""
        with self._http.stream("GET", f"/v1/jobs/{quote(job_id, safe='')}/results") as response:
            if response.status_code != 200:
                response.read()
                raise _error(response)
            for line in response.iter_lines():
                if line.strip():
                    yield json.loads(line)

    def cancel(self, job_id: str) -> JobStatus:
        """`DELETE /v1/jobs/{id}`: chunks not yet claimed will not run; results stay readable."""
        response = cancel_job.sync_detailed(job_id, client=cast(AuthenticatedClient, self._client.api))
        if response.status_code != 200 or not isinstance(response.parsed, JobStatus):
            raise _error(httpx.Response(response.status_code, content=response.content))
        return response.parsed


class AsyncJobs:
    """The jobs of one asyncio client (`referee.jobs` of an `AsyncReferee`): the calls of
    [`Jobs`], awaited; `results` is an async iterator."""

    def __init__(self, client: AsyncReferee) -> None:
        self._client = client
        self._http = client.api.get_async_httpx_client()

    async def _request(self, method: str, path: str, *, expect: int, **kwargs: Any) -> httpx.Response:
        policy = self._client.policy
        attempt = 0
        while True:
            try:
                response = await self._http.request(method, path, **kwargs)
            except httpx.TimeoutException as e:
                raise RefereeError(f"request timed out: {e}") from e
            except httpx.TransportError as e:
                if attempt >= policy.max_retries:
                    raise RefereeError(f"request failed: {e}") from e
                attempt += 1
                await asyncio.sleep(policy.wait(attempt, None))
                continue
            if response.status_code in RETRY_STATUSES and attempt < policy.max_retries:
                attempt += 1
                await asyncio.sleep(policy.wait(attempt, response))
                continue
            if response.status_code != expect:
                raise _error(response)
            return response

    async def submit(self, source: JobSource, *, chunk_size: int | None = None) -> JobStatus:
        """Uploads score items as a job; see [`Jobs.submit`]. A file is read whole before it is sent."""
        if isinstance(source, (str, os.PathLike)):
            data = await asyncio.to_thread(Path(source).read_bytes)
        else:
            data = _upload_bytes(source)
        response = await self._request("POST", "/v1/jobs", expect=201, content=data, **_upload_kwargs(chunk_size))
        return JobStatus.from_dict(response.json())

    async def status(self, job_id: str) -> JobStatus:
        """`GET /v1/jobs/{id}`: the job's state and progress."""
        response = await self._request("GET", f"/v1/jobs/{quote(job_id, safe='')}", expect=200)
        return JobStatus.from_dict(response.json())

    async def wait(
        self,
        job_id: str,
        *,
        poll_interval: float = 1.0,
        timeout: float | None = None,
        on_progress: Callable[[JobStatus], None] | None = None,
    ) -> JobStatus:
        """Waits until the job is finished and returns its last status; see [`Jobs.wait`]."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            status = await self.status(job_id)
            if on_progress is not None:
                on_progress(status)
            if status.state in FINISHED:
                return status
            if deadline is not None and time.monotonic() >= deadline:
                raise RefereeError(f"job {job_id} is still {status.state} after {timeout} s")
            await asyncio.sleep(poll_interval)

    async def results(self, job_id: str) -> AsyncIterator[Result]:
        """Streams the results written so far, in input order, parsed line by line."""
        async with self._http.stream("GET", f"/v1/jobs/{quote(job_id, safe='')}/results") as response:
            if response.status_code != 200:
                await response.aread()
                raise _error(response)
            async for line in response.aiter_lines():
                if line.strip():
                    yield json.loads(line)

    async def cancel(self, job_id: str) -> JobStatus:
        """`DELETE /v1/jobs/{id}`: chunks not yet claimed will not run; results stay readable."""
        response = await self._request("DELETE", f"/v1/jobs/{quote(job_id, safe='')}", expect=200)
        return JobStatus.from_dict(response.json())
