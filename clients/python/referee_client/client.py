"""Batch scoring over the generated client's connections: chunking, a concurrency limit,
retries on 429/503 that honour `Retry-After`, and timeouts."""

from __future__ import annotations

import asyncio
import email.utils
import random
import threading
import time
import urllib.parse
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol

import httpx
from referee_api import AuthenticatedClient, Client
from referee_api.models.status import Status
from typing_extensions import Self  # noqa: UP035 (typing.Self is Python 3.11+; the client supports 3.10)

if TYPE_CHECKING:
    from .jobs import AsyncJobs, Jobs

__all__ = [
    "UNJUDGED",
    "AsyncReferee",
    "Item",
    "Referee",
    "RefereeError",
    "Result",
    "is_judged",
]

#: One verdict as the server returns it: `id`, `verifier`, `score`, `status`, `details`,
#: `elapsed_us` (the `ScoreResult` schema).
Result = dict[str, Any]


class Model(Protocol):
    """A generated model (`referee_api.models`), e.g. `MathScoreItem` or `MathInput`."""

    def to_dict(self) -> dict[str, Any]: ...


#: An item as the calls take it: a generated, typed model (`MathScoreItem(verifier="math",
#: input=MathInput(...))`, which a type checker verifies) or the same item as a plain dict.
Item = Model | Mapping[str, Any]


def as_json(item: Item) -> Any:
    """The JSON value of an item: a generated model's `to_dict()`, a mapping as it is."""
    to_dict = getattr(item, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return item


#: Statuses that say nothing about the response: the item could not be judged.
UNJUDGED: frozenset[Status] = frozenset({"timeout", "resource_limit", "invalid_input", "internal_error"})

RETRY_STATUSES = frozenset({429, 503})
DEFAULT_URL = "http://127.0.0.1:8080"


def is_judged(result: Result) -> bool:
    """True when the verdict says something about the response."""
    return result["status"] not in UNJUDGED


class RefereeError(Exception):
    """A request the server refused, or that could not be completed after the retries.

    `status` is the HTTP status (None for a transport failure or a timeout) and `code` the
    server's error code (e.g. `too_many_items`), when it sent one."""

    def __init__(self, message: str, *, status: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """The wait a `Retry-After` header asks for: delta-seconds or an HTTP date."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def _error(response: httpx.Response) -> RefereeError:
    try:
        body = response.json()
        code, message = body.get("code"), body.get("message")
    except ValueError:
        code, message = None, response.text[:200]
    return RefereeError(f"HTTP {response.status_code}: {message}", status=response.status_code, code=code)


class _Policy:
    """What both clients share: chunking, the retry schedule and the request bodies."""

    def __init__(
        self,
        *,
        chunk_size: int,
        concurrency: int,
        max_retries: int,
        max_retry_wait: float,
        backoff: float,
    ) -> None:
        if chunk_size < 1 or concurrency < 1 or max_retries < 0:
            raise ValueError("chunk_size and concurrency must be at least 1, max_retries at least 0")
        self.chunk_size = chunk_size
        self.concurrency = concurrency
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.backoff = backoff
        self._lock = threading.Lock()
        #: Requests sent again after a 429/503 or a transport error, since the client was made.
        self.retries = 0

    def chunks(self, items: Sequence[Any]) -> list[Sequence[Any]]:
        return [items[i : i + self.chunk_size] for i in range(0, len(items), self.chunk_size)]

    def wait(self, attempt: int, response: httpx.Response | None) -> float:
        """Seconds to wait before retry number `attempt` (1-based)."""
        with self._lock:
            self.retries += 1
        asked = retry_after_seconds(response.headers.get("retry-after")) if response is not None else None
        if asked is None:
            asked = self.backoff * 2 ** (attempt - 1) * (0.5 + random.random())
        return min(asked, self.max_retry_wait)

    @staticmethod
    def options(timeout_ms: int | None, run: str | None, step: int | None) -> dict[str, Any]:
        """The request's fields besides `items`: its time budget, and the training run and step
        of every item that names none (see docs/runs.md)."""
        fields = {"timeout_ms": timeout_ms, "run": run, "step": step}
        return {name: value for name, value in fields.items() if value is not None}

    @staticmethod
    def body(items: Sequence[Any], options: dict[str, Any]) -> dict[str, Any]:
        return {"items": [as_json(item) for item in items], **options}

    @staticmethod
    def path(verifier: str | None) -> str:
        if verifier is None:
            return "/v1/score"
        return f"/v1/verifiers/{urllib.parse.quote(verifier, safe='')}/score"

    def results(self, response: httpx.Response, sent: int) -> list[Result]:
        results = response.json()["results"]
        if len(results) != sent:
            raise RefereeError(f"the server answered {len(results)} results for {sent} items")
        return results


def _generated(base_url: str, api_key: str | None, timeout: float) -> Client | AuthenticatedClient:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=64)
    if api_key is None:
        return Client(base_url=base_url, timeout=httpx.Timeout(timeout), httpx_args={"limits": limits})
    return AuthenticatedClient(
        base_url=base_url, token=api_key, timeout=httpx.Timeout(timeout), httpx_args={"limits": limits}
    )


class Referee:
    """A synchronous client. Thread-safe; chunks of one call are sent from a thread pool.

    >>> with Referee("http://127.0.0.1:8080") as referee:
    ...     results = referee.score([{"verifier": "math", "input": {"response": "2", "reference": "2"}}])

    `timeout` bounds each HTTP request in seconds; `timeout_ms` of a call is the server-side
    budget of each request (items not judged in time get `timeout`). A chunk refused with 429
    or 503 is sent again after the `Retry-After` the server asked for (at most
    `max_retry_wait` seconds), up to `max_retries` times; so is one that failed to connect."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        api_key: str | None = None,
        timeout: float = 60.0,
        chunk_size: int = 1000,
        concurrency: int = 4,
        max_retries: int = 5,
        max_retry_wait: float = 30.0,
        backoff: float = 0.25,
    ) -> None:
        self.policy = _Policy(
            chunk_size=chunk_size,
            concurrency=concurrency,
            max_retries=max_retries,
            max_retry_wait=max_retry_wait,
            backoff=backoff,
        )
        self.api = _generated(base_url, api_key, timeout)
        self._http = self.api.get_httpx_client()
        self._pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="referee")

    @property
    def retries(self) -> int:
        """Requests sent again so far."""
        return self.policy.retries

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def post_json(self, path: str, body: Any, *, params: dict[str, str] | None = None) -> httpx.Response:
        """POSTs `body` as JSON with the client's retries; returns the 200 response or raises."""
        attempt = 0
        while True:
            try:
                response = self._http.post(path, json=body, params=params)
            except httpx.TimeoutException as e:
                raise RefereeError(f"request timed out: {e}") from e
            except httpx.TransportError as e:
                if attempt >= self.policy.max_retries:
                    raise RefereeError(f"request failed: {e}") from e
                attempt += 1
                time.sleep(self.policy.wait(attempt, None))
                continue
            if response.status_code in RETRY_STATUSES and attempt < self.policy.max_retries:
                attempt += 1
                time.sleep(self.policy.wait(attempt, response))
                continue
            if response.status_code != 200:
                raise _error(response)
            return response

    def _chunk(self, path: str, chunk: Sequence[Any], options: dict[str, Any]) -> list[Result]:
        return self.policy.results(self.post_json(path, self.policy.body(chunk, options)), len(chunk))

    def _run(self, path: str, items: Sequence[Any], options: dict[str, Any]) -> list[Result]:
        chunks = self.policy.chunks(items)
        if len(chunks) <= 1:
            return self._chunk(path, items, options) if items else []
        parts = self._pool.map(lambda chunk: self._chunk(path, chunk, options), chunks)
        return [result for part in parts for result in part]

    def score(
        self,
        items: Iterable[Item],
        *,
        timeout_ms: int | None = None,
        run: str | None = None,
        step: int | None = None,
    ) -> list[Result]:
        """Scores items `{"id"?, "verifier", "input"}` (dicts or generated models such as
        `MathScoreItem`); one result per item, in order. `run` and `step` tag every item that
        names no run of its own (docs/runs.md)."""
        return self._run("/v1/score", list(items), _Policy.options(timeout_ms, run, step))

    def score_with(
        self,
        verifier: str,
        inputs: Iterable[Item],
        *,
        timeout_ms: int | None = None,
        run: str | None = None,
        step: int | None = None,
    ) -> list[Result]:
        """Scores verifier inputs (dicts or generated models such as `MathInput`) with one
        verifier; one result per input, in order, tagged with `run` and `step` when given."""
        items = [{"input": as_json(one)} for one in inputs]
        return self._run(_Policy.path(verifier), items, _Policy.options(timeout_ms, run, step))

    @property
    def jobs(self) -> Jobs:
        """Batch jobs: upload a JSONL file, follow its progress, stream its results."""
        from .jobs import Jobs

        return Jobs(self)

    def verifiers(self) -> list[dict[str, Any]]:
        """`GET /v1/verifiers`: every verifier with its input schema."""
        response = self._http.get("/v1/verifiers")
        if response.status_code != 200:
            raise _error(response)
        return response.json()["verifiers"]


class AsyncReferee:
    """The asyncio client: the same calls as [`Referee`], awaited; at most `concurrency` chunks
    of one client are in flight at once."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        api_key: str | None = None,
        timeout: float = 60.0,
        chunk_size: int = 1000,
        concurrency: int = 4,
        max_retries: int = 5,
        max_retry_wait: float = 30.0,
        backoff: float = 0.25,
    ) -> None:
        self.policy = _Policy(
            chunk_size=chunk_size,
            concurrency=concurrency,
            max_retries=max_retries,
            max_retry_wait=max_retry_wait,
            backoff=backoff,
        )
        self.api = _generated(base_url, api_key, timeout)
        self._http = self.api.get_async_httpx_client()
        self._slots: asyncio.Semaphore | None = None

    @property
    def retries(self) -> int:
        """Requests sent again so far."""
        return self.policy.retries

    async def aclose(self) -> None:
        await self._http.aclose()

    @property
    def jobs(self) -> AsyncJobs:
        """Batch jobs: upload a JSONL file, follow its progress, stream its results."""
        from .jobs import AsyncJobs

        return AsyncJobs(self)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def post_json(self, path: str, body: Any, *, params: dict[str, str] | None = None) -> httpx.Response:
        """POSTs `body` as JSON with the client's retries; returns the 200 response or raises."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.policy.concurrency)
        attempt = 0
        while True:
            async with self._slots:
                try:
                    response = await self._http.post(path, json=body, params=params)
                except httpx.TimeoutException as e:
                    raise RefereeError(f"request timed out: {e}") from e
                except httpx.TransportError as e:
                    if attempt >= self.policy.max_retries:
                        raise RefereeError(f"request failed: {e}") from e
                    response = None
            if response is not None and response.status_code == 200:
                return response
            if response is not None and (
                response.status_code not in RETRY_STATUSES or attempt >= self.policy.max_retries
            ):
                raise _error(response)
            attempt += 1
            await asyncio.sleep(self.policy.wait(attempt, response))

    async def _chunk(self, path: str, chunk: Sequence[Any], options: dict[str, Any]) -> list[Result]:
        response = await self.post_json(path, self.policy.body(chunk, options))
        return self.policy.results(response, len(chunk))

    async def _run(self, path: str, items: Sequence[Any], options: dict[str, Any]) -> list[Result]:
        if not items:
            return []
        parts = await asyncio.gather(*(self._chunk(path, c, options) for c in self.policy.chunks(items)))
        return [result for part in parts for result in part]

    async def score(
        self,
        items: Iterable[Item],
        *,
        timeout_ms: int | None = None,
        run: str | None = None,
        step: int | None = None,
    ) -> list[Result]:
        """Scores items `{"id"?, "verifier", "input"}` (dicts or generated models such as
        `MathScoreItem`); one result per item, in order. `run` and `step` tag every item that
        names no run of its own (docs/runs.md)."""
        return await self._run("/v1/score", list(items), _Policy.options(timeout_ms, run, step))

    async def score_with(
        self,
        verifier: str,
        inputs: Iterable[Item],
        *,
        timeout_ms: int | None = None,
        run: str | None = None,
        step: int | None = None,
    ) -> list[Result]:
        """Scores verifier inputs (dicts or generated models such as `MathInput`) with one
        verifier; one result per input, in order, tagged with `run` and `step` when given."""
        items = [{"input": as_json(one)} for one in inputs]
        return await self._run(_Policy.path(verifier), items, _Policy.options(timeout_ms, run, step))

    async def verifiers(self) -> list[dict[str, Any]]:
        """`GET /v1/verifiers`: every verifier with its input schema."""
        response = await self._http.get("/v1/verifiers")
        if response.status_code != 200:
            raise _error(response)
        return response.json()["verifiers"]
