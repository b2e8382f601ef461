"""Batch jobs through the Python client against a real server: upload (a file, bytes, items as
dicts or generated models), progress, streamed results in input order, cancel, errors."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from referee_api.models import ExactMatchInput, ExactMatchScoreItem, JobStatus
from referee_client import AsyncReferee, Referee, RefereeError


def line(i: int) -> dict:
    reference = "yes" if i % 2 == 0 else "no"
    return {"id": f"j{i}", "verifier": "exact-match", "input": {"response": "yes", "reference": reference}}


def test_a_file_is_scored_and_streamed_in_input_order(server_url: str, tmp_path: Path) -> None:
    path = tmp_path / "rollouts.jsonl"
    lines = [json.dumps(line(i)) for i in range(25)]
    lines.insert(3, "not json")
    path.write_text("\n".join(lines) + "\n")
    seen: list[JobStatus] = []
    with Referee(server_url) as referee:
        job = referee.jobs.submit(path, chunk_size=4)
        assert job.state in ("queued", "running", "done") and job.total_items == 26 and job.chunk_size == 4
        final = referee.jobs.wait(job.id, poll_interval=0.05, timeout=120, on_progress=seen.append)
        assert final.state == "done" and final.scored_items == 26 and final.chunks_done == final.chunks_total == 7
        assert seen and seen[-1].state == "done"
        assert [s.scored_items for s in seen] == sorted(s.scored_items for s in seen)
        results = list(referee.jobs.results(job.id))
    assert [r["index"] for r in results] == list(range(26))
    assert results[3]["status"] == "invalid_input"
    rest = results[:3] + results[4:]
    assert [r["id"] for r in rest] == [f"j{i}" for i in range(25)]
    assert [r["status"] for r in rest] == ["correct" if i % 2 == 0 else "incorrect" for i in range(25)]


def test_items_and_models_are_uploaded_as_ndjson(server_url: str) -> None:
    typed = ExactMatchScoreItem(
        verifier="exact-match", input_=ExactMatchInput(response="Paris", reference="Paris"), id="typed"
    )
    with Referee(server_url) as referee:
        job = referee.jobs.submit([typed, line(1)])
        assert referee.jobs.wait(job.id, poll_interval=0.05, timeout=120).state == "done"
        results = list(referee.jobs.results(job.id))
        assert [(r["id"], r["status"]) for r in results] == [("typed", "correct"), ("j1", "incorrect")]
        raw = referee.jobs.submit(b'{"verifier": "exact-match", "input": {"response": "a", "reference": "a"}}\n')
        assert referee.jobs.wait(raw.id, poll_interval=0.05, timeout=120).total_items == 1
        assert referee.jobs.status(raw.id).state == "done"


def test_errors_are_raised_with_their_code(server_url: str) -> None:
    with Referee(server_url) as referee:
        with pytest.raises(RefereeError) as raised:
            referee.jobs.submit(b"\n\n")
        assert (raised.value.status, raised.value.code) == (422, "invalid_body")
        for call in (referee.jobs.status, referee.jobs.cancel, lambda job_id: list(referee.jobs.results(job_id))):
            with pytest.raises(RefereeError) as raised:
                call("job_does_not_exist")
            assert (raised.value.status, raised.value.code) == (404, "unknown_job")


def test_a_cancelled_job_finishes_as_cancelled(server_url: str) -> None:
    with Referee(server_url) as referee:
        job = referee.jobs.submit([line(i) for i in range(40)], chunk_size=1)
        cancelled = referee.jobs.cancel(job.id)
        assert cancelled.state in ("cancelled", "done")
        final = referee.jobs.wait(job.id, poll_interval=0.05, timeout=120)
        assert final.state == cancelled.state
        # A chunk a worker held when the job was cancelled may still land; whatever was scored is
        # streamed once, in input order, with its own verdict.
        results = list(referee.jobs.results(job.id))
        indices = [r["index"] for r in results]
        assert indices == sorted(set(indices)) and set(indices) <= set(range(40))
        assert all(r["status"] == ("correct" if r["index"] % 2 == 0 else "incorrect") for r in results)


def test_the_asyncio_client_runs_jobs_too(server_url: str, tmp_path: Path) -> None:
    path = tmp_path / "rollouts.jsonl"
    path.write_text("".join(json.dumps(line(i)) + "\n" for i in range(6)))

    async def run() -> None:
        async with AsyncReferee(server_url) as referee:
            job = await referee.jobs.submit(path, chunk_size=2)
            seen: list[JobStatus] = []
            final = await referee.jobs.wait(job.id, poll_interval=0.05, timeout=120, on_progress=seen.append)
            assert final.state == "done" and final.scored_items == 6 and seen[-1].state == "done"
            results = [result async for result in referee.jobs.results(job.id)]
            assert [r["index"] for r in results] == list(range(6))
            assert [r["status"] for r in results] == ["correct", "incorrect"] * 3
            assert (await referee.jobs.status(job.id)).state == "done"
            assert (await referee.jobs.cancel(job.id)).state == "done"
            with pytest.raises(RefereeError) as raised:
                await referee.jobs.status("job_does_not_exist")
            assert (raised.value.status, raised.value.code) == (404, "unknown_job")

    asyncio.run(run())
