"""The batch-scoring layer against a real server: chunking, order, concurrency, retries on 503
with `Retry-After`, timeouts and errors."""

from __future__ import annotations

import asyncio
import http.server
import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest
from referee_client import AsyncReferee, Referee, RefereeError, is_judged
from referee_client.client import retry_after_seconds

from .conftest import Server


def math_item(i: int, right: bool) -> dict:
    answer = i * 3 if right else i * 3 + 1
    return {
        "id": f"m{i}",
        "verifier": "math",
        "input": {"response": f"so \\boxed{{{answer}}}", "reference": str(i * 3)},
    }


def items(n: int) -> list[dict]:
    return [math_item(i, right=i % 3 != 0) for i in range(n)]


def check(results: list[dict], n: int) -> None:
    assert [r["id"] for r in results] == [f"m{i}" for i in range(n)]
    assert [r["status"] for r in results] == ["incorrect" if i % 3 == 0 else "correct" for i in range(n)]
    assert [r["score"] for r in results] == [0.0 if i % 3 == 0 else 1.0 for i in range(n)]


def test_chunks_keep_item_order(server_url: str) -> None:
    with Referee(server_url, chunk_size=7, concurrency=3) as referee:
        check(referee.score(items(50)), 50)
        assert referee.score([]) == []
        assert referee.retries == 0


def test_async_chunks_keep_item_order(server_url: str) -> None:
    async def run() -> None:
        async with AsyncReferee(server_url, chunk_size=7, concurrency=3) as referee:
            check(await referee.score(items(50)), 50)
            assert await referee.score([]) == []

    asyncio.run(run())


def test_one_verifier_and_bad_items(server_url: str) -> None:
    with Referee(server_url, chunk_size=2) as referee:
        results = referee.score_with(
            "exact-match",
            [{"response": "Paris", "reference": "Paris"}, {"response": "Lyon", "reference": "Paris"}, {"nope": 1}],
        )
        assert [r["status"] for r in results] == ["correct", "incorrect", "invalid_input"]
        assert [is_judged(r) for r in results] == [True, True, False]
        mixed = referee.score([{"verifier": "no-such-verifier", "input": {}}, math_item(1, True)])
        assert [r["status"] for r in mixed] == ["invalid_input", "correct"]
        assert "error" in mixed[0]["details"]
        assert {v["id"] for v in referee.verifiers()} >= {"math", "exact-match", "multiple-choice"}


def test_request_errors_are_raised_with_their_code(server_url: str) -> None:
    with Referee(server_url) as referee, pytest.raises(RefereeError) as raised:
        referee.score_with("no-such-verifier", [{"response": "x"}])
    assert (raised.value.status, raised.value.code) == (404, "unknown_verifier")

    async def run() -> None:
        async with AsyncReferee(server_url) as referee:
            await referee.score([{"verifier": "math", "input": {}}], timeout_ms=0)

    with pytest.raises(RefereeError) as raised:
        asyncio.run(run())
    assert (raised.value.status, raised.value.code) == (422, "invalid_body")


class HeldJudge:
    """Plays the LLM judge (OpenAI's chat-completions route) and answers only once released, so
    that a rubric item scored through it keeps its request in flight for as long as a test needs."""

    REPLY = {"verdicts": [{"name": "depth", "reason": "held", "verdict": 7}]}

    def __init__(self) -> None:
        self.called = threading.Event()
        self.released = threading.Event()
        judge = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                judge.called.set()
                judge.released.wait(60)
                message = {"role": "assistant", "content": json.dumps(judge.REPLY)}
                body = json.dumps({"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def held_judge() -> Iterator[HeldJudge]:
    judge = HeldJudge()
    try:
        yield judge
    finally:
        judge.close()


@pytest.fixture(scope="module")
def one_slot(held_judge: HeldJudge) -> Iterator[Server]:
    """A server that handles one request at a time and refuses the rest with 503."""
    server = Server({
        "REFEREE__SERVER__MAX_CONCURRENT_REQUESTS": "1",
        "REFEREE__SERVER__RETRY_AFTER_SECS": "1",
        "REFEREE__JUDGE__BASE_URL": held_judge.base_url,
        "REFEREE__JUDGE__MODEL": "held-judge",
        "REFEREE__JUDGE__MAX_RETRIES": "0",
    })
    try:
        yield server
    finally:
        server.stop()


class HeldSlot:
    """Takes the server's one slot with a request in progress: a rubric item waiting for its judge."""

    CRITERIA = [{"name": "depth", "description": "How deep?", "kind": {"type": "score", "min": 1, "max": 10}}]

    def __init__(self, url: str, judge: HeldJudge) -> None:
        judge.called.clear()
        judge.released.clear()
        self.judge = judge
        self.status: list[int] = []
        request = urllib.request.Request(
            url + "/v1/score", json.dumps({"items": [self.item()]}).encode(), {"content-type": "application/json"},
        )
        self.caller = threading.Thread(target=lambda: self.status.append(urllib.request.urlopen(request, timeout=120).status))
        self.caller.start()
        assert judge.called.wait(30), "the rubric item never reached the judge"

    @classmethod
    def item(cls) -> dict:
        # A response of its own each time: a cached verdict would not wait for the judge.
        return {"verifier": "rubric", "input": {"response": f"x{time.monotonic_ns()}", "rubric": {"criteria": cls.CRITERIA}}}

    def release(self) -> int:
        """Lets the judge answer; the held request's HTTP status."""
        self.judge.released.set()
        self.caller.join(timeout=60)
        return self.status[0]


def wait_for_retry(referee: Referee | AsyncReferee) -> None:
    deadline = time.monotonic() + 30
    while referee.retries == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert referee.retries > 0, "the held slot did not make the client retry"


def test_overloaded_requests_are_retried_after_retry_after(one_slot: Server, held_judge: HeldJudge) -> None:
    held = HeldSlot(one_slot.url, held_judge)
    with Referee(one_slot.url, max_retries=10) as referee:
        outcome: list = []
        caller = threading.Thread(target=lambda: outcome.append(referee.score(items(4))))
        caller.start()
        wait_for_retry(referee)
        assert held.release() == 200
        caller.join(timeout=60)
        check(outcome[0], 4)


def test_async_overloaded_requests_are_retried(one_slot: Server, held_judge: HeldJudge) -> None:
    held = HeldSlot(one_slot.url, held_judge)

    async def run() -> list:
        async with AsyncReferee(one_slot.url, max_retries=10) as referee:
            task = asyncio.ensure_future(referee.score(items(4)))
            await asyncio.to_thread(wait_for_retry, referee)
            await asyncio.to_thread(held.release)
            return await task

    check(asyncio.run(run()), 4)


def test_retries_run_out(one_slot: Server, held_judge: HeldJudge) -> None:
    held = HeldSlot(one_slot.url, held_judge)
    try:
        with Referee(one_slot.url, max_retries=0) as referee, pytest.raises(RefereeError) as raised:
            referee.score(items(1))
        assert (raised.value.status, raised.value.code) == (503, "overloaded")
    finally:
        held.release()


def test_requests_time_out() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    try:
        with Referee(url, timeout=0.3) as referee, pytest.raises(RefereeError, match="timed out"):
            referee.score(items(1))
    finally:
        listener.close()


def test_retry_after_forms() -> None:
    assert retry_after_seconds("3") == 3.0
    assert retry_after_seconds(None) is None
    assert retry_after_seconds("soon") is None
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == 10.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0


def test_waits_follow_retry_after() -> None:
    import httpx

    with Referee("http://127.0.0.1:9", max_retry_wait=5.0, backoff=0.1) as referee:
        policy = referee.policy
        assert policy.wait(1, httpx.Response(503, headers={"retry-after": "2"})) == 2.0
        assert policy.wait(1, httpx.Response(429, headers={"retry-after": "120"})) == 5.0, "capped"
        without = [policy.wait(attempt, httpx.Response(503)) for attempt in (1, 2, 3)]
        assert 0.05 <= without[0] <= 0.15 and 0.2 <= without[2] <= 0.6, "exponential back-off"
        assert referee.retries == 5
