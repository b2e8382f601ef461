"""Coalescing of single-item calls into batch requests.

Trainers call reward functions one rollout at a time, concurrently (verl's reward loop, the NeMo
Gym `/verify` server, slime without `--group-rm`). One request per rollout wastes what the server
is best at: a batch is judged on all cores at once and costs one round trip. A [`Batcher`] queues
items from any thread or event loop and sends whatever has queued as one `POST /v1/score`
whenever one of its `concurrency` request slots is free, so the batches grow by themselves when
the server is busy and shrink to single items when it is idle.
"""

from __future__ import annotations

import asyncio
import queue
import random
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from .client import RefereeError, Result

__all__ = ["BACK_PRESSURE", "Batcher", "patient", "patient_async"]

#: Refusals that say "not now" (load shedding, a full code queue), not "never".
BACK_PRESSURE = frozenset({429, 503})

Send = Callable[[Sequence[dict[str, Any]]], list[Result]]


def _waits(patience: float) -> Iterator[float]:
    """Back-off waits (0.5 s doubling to 5 s, with jitter) that fit in `patience` seconds."""
    deadline = time.monotonic() + patience
    wait = 0.5
    while True:
        pause = wait * (0.5 + random.random())
        if time.monotonic() + pause > deadline:
            return
        yield pause
        wait = min(wait * 2, 5.0)


def patient(send: Send, patience: float) -> Send:
    """`send`, sent again after back-pressure (429 or 503, once the client's own retries are
    spent) for up to `patience` seconds. A trainer's reward call must not fail, nor lose its
    rewards, because the server was busy for a while; any other error is raised at once."""

    def call(items: Sequence[dict[str, Any]]) -> list[Result]:
        waits = _waits(patience)
        while True:
            try:
                return send(items)
            except RefereeError as e:
                pause = next(waits, None) if e.status in BACK_PRESSURE else None
                if pause is None:
                    raise
                time.sleep(pause)

    return call


async def patient_async(send: Callable[[], Awaitable[list[Result]]], patience: float) -> list[Result]:
    """[`patient`] for a coroutine: awaits `send()` again after back-pressure."""
    waits = _waits(patience)
    while True:
        try:
            return await send()
        except RefereeError as e:
            pause = next(waits, None) if e.status in BACK_PRESSURE else None
            if pause is None:
                raise
            await asyncio.sleep(pause)


class Batcher:
    """Queues items and sends them in batches through `send` (e.g. `Referee.score`).

    `window` is how long (seconds) a batch waits for more items after its first one, when a slot
    is free; `max_items` caps a batch (keep it at or below the server's
    `server.max_batch_items`); `concurrency` is the number of batches in flight at once. A batch
    whose request fails fails every item in it with the same exception."""

    def __init__(self, send: Send, *, window: float = 0.0, max_items: int = 1000, concurrency: int = 4) -> None:
        if max_items < 1 or concurrency < 1 or window < 0:
            raise ValueError("max_items and concurrency must be at least 1, window at least 0")
        self._send = send
        self._window = window
        self._max_items = max_items
        self._queue: queue.SimpleQueue[tuple[dict[str, Any], Future[Result]]] = queue.SimpleQueue()
        self._slots = threading.Semaphore(concurrency)
        self._pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="referee-batch")
        self._lock = threading.Lock()
        self._collector: threading.Thread | None = None
        #: Batches sent so far (for logging and tests).
        self.batches = 0

    def submit(self, item: dict[str, Any]) -> Future[Result]:
        """Queues one item `{"verifier", "input"}`; the future resolves to its result."""
        future: Future[Result] = Future()
        self._queue.put((item, future))
        self._ensure_collector()
        return future

    def score(self, item: dict[str, Any]) -> Result:
        """Scores one item, blocking until its batch is answered."""
        return self.submit(item).result()

    async def score_async(self, item: dict[str, Any]) -> Result:
        """Scores one item from any event loop without blocking it."""
        return await asyncio.wrap_future(self.submit(item))

    def _ensure_collector(self) -> None:
        with self._lock:
            if self._collector is None or not self._collector.is_alive():
                # A daemon thread: a trainer process that exits must not wait for an idle batcher.
                self._collector = threading.Thread(target=self._collect, name="referee-batcher", daemon=True)
                self._collector.start()

    def _collect(self) -> None:
        while True:
            # Take a slot before the first item, so that items queue up while every slot is busy
            # and the next batch carries all of them.
            self._slots.acquire()
            first = self._queue.get()
            batch = [first]
            deadline = time.monotonic() + self._window
            while len(batch) < self._max_items:
                try:
                    batch.append(self._queue.get_nowait())
                    continue
                except queue.Empty:
                    pass
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                try:
                    batch.append(self._queue.get(timeout=left))
                except queue.Empty:
                    break
            self.batches += 1
            self._pool.submit(self._dispatch, batch)

    def _dispatch(self, batch: list[tuple[dict[str, Any], Future[Result]]]) -> None:
        try:
            results = self._send([item for item, _ in batch])
            if len(results) != len(batch):
                raise RuntimeError(f"{len(results)} results for {len(batch)} items")
        except BaseException as e:  # noqa: BLE001 (every waiting caller must hear of the failure)
            for _, future in batch:
                future.set_exception(e)
        else:
            for (_, future), result in zip(batch, results, strict=True):
                future.set_result(result)
        finally:
            self._slots.release()
