"""The batcher that turns single-rollout calls into batch requests (no server needed)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from referee_client._batch import Batcher


def test_items_queued_while_every_slot_is_busy_go_in_one_batch() -> None:
    release = threading.Event()
    sent: list[list[str]] = []

    def send(items):
        sent.append([item["input"]["response"] for item in items])
        if len(sent) == 1:
            release.wait(timeout=60)
        return [{"score": 1.0, "status": "correct", "echo": item["input"]["response"]} for item in items]

    batcher = Batcher(send, concurrency=1)
    first = batcher.submit({"verifier": "math", "input": {"response": "0"}})
    while not sent:  # the first batch is in flight and holds the only slot
        threading.Event().wait(0.001)
    rest = [batcher.submit({"verifier": "math", "input": {"response": str(i)}}) for i in range(1, 50)]
    release.set()
    assert first.result(timeout=60)["echo"] == "0"
    assert [f.result(timeout=60)["echo"] for f in rest] == [str(i) for i in range(1, 50)]
    assert sent == [["0"], [str(i) for i in range(1, 50)]]
    assert batcher.batches == 2


def test_max_items_caps_a_batch() -> None:
    release = threading.Event()
    sizes: list[int] = []

    def send(items):
        sizes.append(len(items))
        if len(sizes) == 1:
            release.wait(timeout=60)
        return [{"score": 0.0, "status": "incorrect"} for _ in items]

    batcher = Batcher(send, concurrency=1, max_items=10)
    futures = [batcher.submit({"input": {}})]
    while not sizes:
        threading.Event().wait(0.001)
    futures += [batcher.submit({"input": {}}) for _ in range(25)]
    release.set()
    for future in futures:
        future.result(timeout=60)
    assert sizes == [1, 10, 10, 5]


def test_a_failed_request_fails_every_item_of_its_batch_and_no_other() -> None:
    calls = 0

    def send(items):
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("server down")
        return [{"score": 1.0, "status": "correct"} for _ in items]

    batcher = Batcher(send, concurrency=1)
    with pytest.raises(RuntimeError, match="server down"):
        batcher.score({"input": {}})
    assert batcher.score({"input": {}})["status"] == "correct"


def test_a_short_answer_is_an_error_not_a_misaligned_reward() -> None:
    batcher = Batcher(lambda items: [], concurrency=1)
    with pytest.raises(RuntimeError, match="0 results for 1 items"):
        batcher.score({"input": {}})


def test_async_callers_on_several_loops() -> None:
    batcher = Batcher(lambda items: [{"score": float(i["input"]["n"]), "status": "correct"} for i in items])

    async def many(offset: int) -> list[float]:
        results = await asyncio.gather(*(batcher.score_async({"input": {"n": offset + n}}) for n in range(20)))
        return [r["score"] for r in results]

    assert asyncio.run(many(0)) == [float(n) for n in range(20)]
    assert asyncio.run(many(100)) == [float(100 + n) for n in range(20)]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        Batcher(lambda items: [], concurrency=0)
    with pytest.raises(ValueError):
        Batcher(lambda items: [], window=-1)


def test_patient_waits_out_back_pressure_only() -> None:
    from referee_client._batch import patient
    from referee_client.client import RefereeError

    calls = 0

    def busy_twice(items):
        nonlocal calls
        calls += 1
        if calls <= 2:
            raise RefereeError("HTTP 429: the code verifier's queue is full", status=429, code="busy")
        return [{"score": 1.0, "status": "correct"} for _ in items]

    assert patient(busy_twice, 60)([{"input": {}}]) == [{"score": 1.0, "status": "correct"}]
    assert calls == 3

    def refused(items):
        raise RefereeError("HTTP 404: unknown verifier", status=404, code="unknown_verifier")

    with pytest.raises(RefereeError, match="unknown verifier"):
        patient(refused, 60)([{"input": {}}])

    calls = 0
    with pytest.raises(RefereeError, match="queue is full"):
        patient(busy_twice, 0)([{"input": {}}])  # no patience left: the error, not a made-up reward
    assert calls == 1


def test_patient_async_waits_out_back_pressure() -> None:
    from referee_client._batch import patient_async
    from referee_client.client import RefereeError

    calls = 0

    async def busy_once():
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RefereeError("HTTP 503: overloaded", status=503)
        return [{"score": 0.0, "status": "incorrect"}]

    assert asyncio.run(patient_async(busy_once, 60)) == [{"score": 0.0, "status": "incorrect"}]
    assert calls == 2
