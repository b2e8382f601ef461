"""Referee's episodes through the OpenEnv protocol, driven by OpenEnv's own clients
(`GenericEnvClient`, sync and async), unmodified, against a live server."""

from __future__ import annotations

import asyncio
import uuid
import warnings

import pytest
import requests

warnings.filterwarnings("ignore", category=DeprecationWarning)
openenv_core = pytest.importorskip("openenv.core")
from openenv.core import GenericEnvClient


def test_python_tool_session_with_the_sync_client(server_url: str) -> None:
    base = f"{server_url}/openenv/python-tool"
    with GenericEnvClient(base_url=base).sync() as env:
        first = env.reset(
            answer_check={"verifier": "math", "input": {"reference": "42"}}, max_calls=8
        )
        assert (first.reward, first.done) == (0.0, False)
        assert first.observation["answer_checked"] is True

        defined = env.step({"code": "def f(n):\n    return n * 6\nprint('defined')"})
        assert defined.observation["stdout"] == "defined\n" and defined.done is False
        value = env.step({"code": "f(7)"})
        assert value.observation["value"] == "42", value.observation

        state = env.state()
        assert state["step_count"] == 2 and state["status"] == "live", state
        assert state["episode_id"].startswith("ep_")

        # A malformed action is an error frame; the session and its episode go on.
        with pytest.raises(RuntimeError, match="VALIDATION_ERROR"):
            env.step({"code": "1", "answer": "2"})
        answered = env.step({"answer": "\\boxed{42}"})
        assert (answered.reward, answered.done) == (1.0, True), answered.observation

        # A reset starts a new episode on the same connection.
        again = env.reset()
        assert again.done is False
        assert env.state()["step_count"] == 0


def test_np_feedback_and_code_repair_with_the_async_client(server_url: str) -> None:
    generated = requests.post(
        f"{server_url}/v1/environments/tsp/instances",
        json={"level": 1, "seed": 11},
        timeout=30,
    )
    answer = generated.json()["instances"][0]["reference"]["answer"]

    async def np_feedback() -> None:
        async with GenericEnvClient(
            base_url=f"{server_url}/openenv/np-feedback"
        ) as env:
            first = await env.reset(
                task="tsp", level=1, seed=11, episode_id="ignored-by-referee"
            )
            assert "Answer" in first.observation["prompt"]
            wrong = await env.step({"response": "Answer: [0, 0]"})
            assert (wrong.done, wrong.reward, wrong.observation["feasible"]) == (
                False,
                0.0,
                False,
            )
            assert wrong.observation["error"]["kind"], wrong.observation
            right = await env.step({"response": f"Answer: {answer}"})
            assert right.done is True and right.reward > 0.0, right

    async def code_repair() -> None:
        options = {
            "language": "python",
            "tests": [{"stdin": "2 3", "expected_stdout": "5"}],
            "hidden_tests": [{"stdin": "10 -3", "expected_stdout": "7"}],
            "max_attempts": 2,
        }
        async with GenericEnvClient(
            base_url=f"{server_url}/openenv/code-repair"
        ) as env:
            await env.reset(**options)
            wrong = await env.step(
                {"program": "a, b = map(int, input().split())\nprint(a * b)"}
            )
            assert (
                wrong.observation["first_failure"]["output"] == "6\n"
                and wrong.done is False
            )
            fixed = await env.step(
                {"program": "a, b = map(int, input().split())\nprint(a + b)"}
            )
            assert (fixed.done, fixed.reward) == (True, 1.0), fixed.observation

    asyncio.run(np_feedback())
    asyncio.run(code_repair())


def test_a_session_is_recorded_in_its_run(server_url: str) -> None:
    """`reset`'s run keyword arguments tag the episode; it is recorded in the run when done."""
    from .test_adapters import recorded_prompts

    run = f"openenv-{uuid.uuid4().hex[:8]}"
    with GenericEnvClient(base_url=f"{server_url}/openenv/python-tool").sync() as env:
        check = {"verifier": "math", "input": {"reference": "42"}}
        env.reset(answer_check=check, run=run, step=3, prompt_id="six-sevens")
        assert env.step({"answer": "\\boxed{42}"}).done is True
        env.reset(answer_check=check, run=run, step=3, prompt_id="six-sevens")
        assert env.step({"answer": "\\boxed{41}"}).done is True
        # A run field without a run is refused like a bad option; the session goes on.
        with pytest.raises(RuntimeError, match="VALIDATION_ERROR"):
            env.reset(answer_check=check, step=3)
    assert recorded_prompts(server_url, run, 2) == {"six-sevens": (2, 1, 3)}


def test_bad_options_are_error_frames(server_url: str) -> None:
    with GenericEnvClient(base_url=f"{server_url}/openenv/np-feedback").sync() as env:
        with pytest.raises(RuntimeError, match="VALIDATION_ERROR"):
            env.reset(task="no-such-task", level=1, seed=1)
        ok = env.reset(task="knapsack", level=1, seed=2)
        assert ok.done is False


def test_the_http_routes(server_url: str) -> None:
    base = f"{server_url}/openenv/python-tool"
    assert requests.get(f"{base}/health", timeout=30).json() == {"status": "healthy"}
    metadata = requests.get(f"{base}/metadata", timeout=30).json()
    assert metadata["name"] == "python-tool" and metadata["version"]
    schema = requests.get(f"{base}/schema", timeout=30).json()
    assert "code" in schema["action"]["properties"]
    # OpenEnv's stateless HTTP step: a fresh episode with default options, closed after.
    step = requests.post(
        f"{base}/step", json={"action": {"code": "6 * 7"}}, timeout=30
    ).json()
    assert (step["observation"]["value"], step["done"]) == ("42", False)
    reset = requests.post(
        f"{server_url}/openenv/np-feedback/reset",
        json={"task": "tsp", "level": 1, "seed": 3},
        timeout=30,
    )
    assert reset.status_code == 200 and reset.json()["reward"] == 0.0
    missing = requests.get(f"{server_url}/openenv/chess/health", timeout=30)
    assert (
        missing.status_code == 404 and missing.json()["code"] == "unknown_environment"
    )
