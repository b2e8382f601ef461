"""TRL's `GRPOTrainer` calling `referee_client.trl`'s reward functions, with TRL's own calling
code, against a live server."""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import math
import threading
import time
import uuid
from collections import defaultdict
from typing import Any

import httpx
import pytest
from referee_client.trl import async_reward_function, reward_function
from transformers import TrainerState

from .test_adapters import requests_served

# --- TRL's calling code ----------------------------------------------------------------------
# Copied from huggingface/trl at commit f2cd57710ae345ea6428ae95363267fcf38a3dc8 (v1.9.0+26),
# trl/trainer/grpo_trainer.py, GRPOTrainer._calculate_rewards, _log_metric and the flush of the
# pending metrics in _generate_and_score_completions; Apache License 2.0. Changed only where TRL's
# types are not installed here: rewards are lists (torch.nan is math.nan), the reward models and
# environments branches and the profiling and multi-process gathering are left out, and the
# trainer's `async_loop` is an event loop running on its own thread as TRL starts it.


class GRPOTrainer:
    def __init__(self, reward_funcs: list) -> None:
        self.reward_funcs = reward_funcs
        self.state = None
        self._pending_extra_logs: dict[str, list] = defaultdict(list)
        self._pending_metrics: dict[str, list] = defaultdict(list)
        self._metrics: dict[str, dict[str, list]] = {"train": defaultdict(list)}
        self.async_loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.async_loop.run_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.async_loop.call_soon_threadsafe(self.async_loop.stop)
        self._thread.join()
        self.async_loop.close()

    def _log_completion_extra(self, column: str, values: list):
        self._pending_extra_logs[column].extend(values)

    def _log_metric(self, name: str, value: float):
        self._pending_metrics[name].append(value)

    def _calculate_rewards(self, inputs, prompts, completions, completion_ids_list):
        rewards_per_func = [[0.0] * len(self.reward_funcs) for _ in prompts]

        # Repeat all input columns (but "prompt", "completion", and "completion_ids") to match the num of generations
        keys = [key for key in inputs[0] if key not in ["prompt", "completion", "completion_ids"]]
        reward_kwargs = {key: [example[key] for example in inputs] for key in keys}

        # This allows for dynamic reward shaping based on training progress.
        reward_kwargs["trainer_state"] = self.state

        # Allow reward functions to log extra columns to the completions table.
        reward_kwargs["log_extra"] = self._log_completion_extra

        # Allow reward functions to log additional scalar metrics.
        reward_kwargs["log_metric"] = self._log_metric

        async_funcs_info = []  # async custom functions for asyncio.gather

        for i, reward_func in enumerate(self.reward_funcs):
            if inspect.iscoroutinefunction(reward_func):  # Separate async reward funcs to run them in parallel later
                async_funcs_info.append((i, reward_func, reward_func.__name__))
            else:
                output_reward_func = reward_func(
                    prompts=prompts, completions=completions, completion_ids=completion_ids_list, **reward_kwargs
                )
                # Convert None values to NaN
                output_reward_func = [reward if reward is not None else math.nan for reward in output_reward_func]
                for row, reward in enumerate(output_reward_func):
                    rewards_per_func[row][i] = reward

        # Execute async custom functions in parallel using asyncio.gather
        if async_funcs_info:

            async def _invoke_async(index, func, func_name):
                output = await func(
                    prompts=prompts, completions=completions, completion_ids=completion_ids_list, **reward_kwargs
                )
                output = [r if r is not None else math.nan for r in output]
                return index, output

            async def _run_async_funcs():
                coros = [_invoke_async(i, func, func_name) for (i, func, func_name) in async_funcs_info]
                return await asyncio.gather(*coros)

            async_results = asyncio.run_coroutine_threadsafe(_run_async_funcs(), self.async_loop).result()
            for idx, output_reward_func in async_results:
                for row, reward in enumerate(output_reward_func):
                    rewards_per_func[row][idx] = reward
        return rewards_per_func

    def flush_metrics(self, mode: str = "train") -> None:
        for name in sorted(self._pending_metrics):
            values = self._pending_metrics[name]
            local_mean = sum(values) / len(values)
            self._metrics[mode][name].append(local_mean)
        self._pending_metrics.clear()


# --- end of TRL's code -----------------------------------------------------------------------


def step(trainer: GRPOTrainer, inputs: list[dict], completions: list) -> list[list[float]]:
    prompts = [x["prompt"] for x in inputs]
    return trainer._calculate_rewards(inputs, prompts, completions, [[0] * 4 for _ in completions])


def same(a: list[float], b: list[float | None]) -> bool:
    return all((math.isnan(x) and y is None) or x == y for x, y in zip(a, b, strict=True))


INPUTS = [
    {"prompt": "What is 6*7?", "solution": "42", "kind": None},
    {"prompt": "What is 6*7?", "solution": "42", "kind": None},
    {"prompt": "Capital of France?", "solution": "Paris", "kind": "exact-match"},
    {"prompt": "Capital of France?", "solution": "Paris", "kind": "exact-match"},
    {"prompt": "Broken item", "solution": "\\frac{", "kind": ""},
]
COMPLETIONS = ["\\boxed{42}", "maybe 41", "Paris", "Lyon", "1"]
EXPECTED: list[float | None] = [1.0, 0.0, 1.0, 0.0, None]


def test_sync_and_async_functions_with_per_row_verifiers(adapter_env: str) -> None:
    sync = reward_function("math", verifier_column="kind", base_url=adapter_env)
    asynchronous = async_reward_function("math", verifier_column="kind", base_url=adapter_env)
    assert inspect.iscoroutinefunction(asynchronous)
    assert asynchronous.__name__ == sync.__name__ == "referee_math"
    trainer = GRPOTrainer([sync, asynchronous])
    try:
        before = requests_served(adapter_env, "/v1/score")
        rewards = step(trainer, INPUTS, COMPLETIONS)
        assert requests_served(adapter_env, "/v1/score") == before + 2, "one request per function per step"
        assert same([r[0] for r in rewards], EXPECTED)
        assert same([r[1] for r in rewards], EXPECTED)

        # The status mix reaches TRL's metrics, every status every step.
        step(trainer, INPUTS[:2], COMPLETIONS[:2])
        trainer.flush_metrics()
        metrics = trainer._metrics["train"]
        # Two functions log each metric; step 1 has 2 of 5 correct, step 2 has 1 of 2.
        assert metrics["referee/referee_math/correct"] == [pytest.approx((0.4 + 0.4 + 0.5 + 0.5) / 4)]
        assert metrics["referee/referee_math/invalid_input"] == [pytest.approx((0.2 + 0.2 + 0 + 0) / 4)]
        assert metrics["referee/referee_math/unjudged"] == [pytest.approx((0.2 + 0.2 + 0 + 0) / 4)]
        assert metrics["referee/referee_math/timeout"] == [0.0]
    finally:
        trainer.close()


def test_unjudged_value_for_trl_before_1_6(adapter_env: str) -> None:
    trainer = GRPOTrainer([reward_function("math", unjudged=0.0, base_url=adapter_env)])
    try:
        rewards = step(trainer, INPUTS[:2] + INPUTS[4:], ["\\boxed{42}", "41", "1"])
        assert [r[0] for r in rewards] == [1.0, 0.0, 0.0]
    finally:
        trainer.close()


def test_conversational_completions(adapter_env: str) -> None:
    inputs: list[dict[str, Any]] = [
        {"prompt": [{"role": "user", "content": "Capital of France?"}], "answer": "Paris"},
        {"prompt": [{"role": "user", "content": "Capital of Italy?"}], "answer": "Rome"},
    ]
    completions = [[{"role": "assistant", "content": "Paris"}], [{"role": "assistant", "content": "Milan"}]]
    trainer = GRPOTrainer([async_reward_function("exact-match", reference_column="answer", base_url=adapter_env)])
    try:
        assert [r[0] for r in step(trainer, inputs, completions)] == [1.0, 0.0]
    finally:
        trainer.close()


def test_a_missing_column_is_named(adapter_env: str) -> None:
    reward = reward_function("math", verifier_column="kind", base_url=adapter_env)
    with pytest.raises(KeyError, match="kind"):
        reward(prompts=["q"], completions=["1"], solution=["1"])
    with pytest.raises(KeyError, match="answer"):
        reward_function("math", reference_column="answer", base_url=adapter_env)(
            prompts=["q"], completions=["1"], solution=["1"]
        )


def test_a_step_under_load(adapter_env: str) -> None:
    from . import load

    inputs = [{"prompt": "p", "solution": load.ground_truth(i)} for i in range(load.ROLLOUTS)]
    trainer = GRPOTrainer(
        [reward_function("code", base_url=adapter_env), async_reward_function("code", base_url=adapter_env)]
    )
    try:
        rewards = step(trainer, inputs, [load.PROGRAM] * load.ROLLOUTS)
        expected = [load.expected_score(i) for i in range(load.ROLLOUTS)]
        assert [r[0] for r in rewards] == expected
        assert [r[1] for r in rewards] == expected
    finally:
        trainer.close()


def recorded_prompts(url: str, run: str, items: int) -> dict[str, tuple[int, int, int]]:
    """The run's prompts once its `items` are written: (attempts, successes, last step) by id."""
    deadline = time.monotonic() + 30
    while httpx.get(f"{url}/v1/runs/{run}").json().get("items") != items:
        assert time.monotonic() < deadline, f"the run's {items} items were not written"
        time.sleep(0.05)
    prompts = httpx.get(f"{url}/v1/runs/{run}/prompts").json()["prompts"]
    return {p["prompt_id"]: (p["attempts"], p["successes"], p["last_step"]) for p in prompts}


def test_a_run_is_recorded_by_trainer_step_and_prompt(adapter_env: str) -> None:
    """TRL hands its `TrainerState`: the completions are recorded at its global step, each prompt's
    generations under a digest of the prompt (sync), or under the dataset's own id (async)."""
    run = f"trl-{uuid.uuid4().hex[:8]}"
    by_digest = reward_function("math", verifier_column="kind", base_url=adapter_env, run=run)
    inputs = [dict(row, qid=f"q{i // 2}") for i, row in enumerate(INPUTS[:4])]
    by_column = async_reward_function(
        "math", verifier_column="kind", base_url=adapter_env, run=run + "-ids", prompt_id_column="qid"
    )
    trainer = GRPOTrainer([by_digest, by_column])
    try:
        for global_step in (7, 8):
            trainer.state = TrainerState(global_step=global_step)
            rewards = step(trainer, inputs, COMPLETIONS[:4])
            assert [r[0] for r in rewards] == [r[1] for r in rewards] == EXPECTED[:4]
    finally:
        trainer.close()
    digest = {p: hashlib.sha256(p.encode()).hexdigest()[:16] for p in ("What is 6*7?", "Capital of France?")}
    # Each prompt: two completions per step, one right, at steps 7 and 8.
    assert recorded_prompts(adapter_env, run, 8) == {
        digest["What is 6*7?"]: (4, 2, 8),
        digest["Capital of France?"]: (4, 2, 8),
    }
    assert recorded_prompts(adapter_env, run + "-ids", 8) == {"q0": (4, 2, 8), "q1": (4, 2, 8)}


def test_without_trainer_state_the_step_is_the_count_of_calls(
    adapter_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = f"trl-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("REFEREE_RUN", run)
    trainer = GRPOTrainer([reward_function("math", verifier_column="kind", base_url=adapter_env)])
    try:
        for _ in range(3):
            step(trainer, INPUTS[:2], COMPLETIONS[:2])
    finally:
        trainer.close()
    assert list(recorded_prompts(adapter_env, run, 6).values()) == [(6, 3, 2)]
