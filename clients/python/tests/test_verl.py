"""verl's reward loop (verl >= 0.7) and legacy batch manager calling `referee_client.verl`, with
verl's own calling code, against a live server."""

from __future__ import annotations

import asyncio
import inspect
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from .test_adapters import PACKAGE, load_by_path, recorded_prompts, requests_served

# --- verl's calling code ---------------------------------------------------------------------
# Copied from volcengine/verl (now verl-project/verl) at commit
# 1dda039b9c6311889a9c9a26040677e1254814f9, Apache License 2.0:
#   verl/experimental/reward_loop/reward_manager/naive.py  NaiveRewardManager.run_single
#   verl/experimental/reward_loop/reward_loop.py           RewardLoopWorker.compute_score_batch,
#                                                           RewardLoopManager.compute_rm_score
# Changed only where verl's types are not installed here: a DataProto row is a dict with the same
# fields, the tokenizer's decode is the identity on an already decoded response, and the reward
# tensor and the numpy arrays of reward_extra_info are lists (verl writes each score at the last
# response token, and np.array()s each extra-info key).


class NaiveRewardManager:
    def __init__(self, compute_score, loop):
        self.compute_score = compute_score
        self.is_async_reward_score = inspect.iscoroutinefunction(self.compute_score)
        self.loop = loop
        self.reward_router_address = None

    async def run_single(self, data_item: dict) -> dict:
        data_source = data_item["non_tensor_batch"]["data_source"]
        ground_truth = data_item["non_tensor_batch"]["reward_model"]["ground_truth"]
        extra_info = data_item["non_tensor_batch"].get("extra_info", {})
        tool_extra_fields = data_item["non_tensor_batch"].get("tool_extra_fields", None)
        if tool_extra_fields is not None:
            extra_info.update(tool_extra_fields.items())

        num_turns = data_item["non_tensor_batch"].get("__num_turns__", None)
        rollout_reward_scores = data_item["non_tensor_batch"].get("reward_scores", {})
        extra_info["num_turns"] = num_turns
        extra_info["rollout_reward_scores"] = rollout_reward_scores

        response_str = await self.loop.run_in_executor(None, lambda: data_item["response"])

        extra_reward_kwargs: dict[str, Any] = {}
        if self.is_async_reward_score:
            result = await self.compute_score(
                data_source=data_source,
                solution_str=response_str,
                ground_truth=ground_truth,
                extra_info=extra_info,
                **extra_reward_kwargs,
            )
        else:
            result = await self.loop.run_in_executor(
                None,
                lambda: self.compute_score(
                    data_source=data_source,
                    solution_str=response_str,
                    ground_truth=ground_truth,
                    extra_info=extra_info,
                    **extra_reward_kwargs,
                ),
            )

        reward_extra_info = {}

        score: float
        if isinstance(result, dict):
            score = result["score"]
            for key, value in result.items():
                reward_extra_info[key] = value
        else:
            score = result
            reward_extra_info["acc"] = score

        reward = score

        return {"reward_score": reward, "reward_extra_info": reward_extra_info}


async def compute_score_batch(reward_manager: NaiveRewardManager, data: list[dict]) -> list[dict]:
    tasks = []
    for i in range(len(data)):
        tasks.append(asyncio.create_task(reward_manager.run_single(data[i])))
    outputs = await asyncio.gather(*tasks)
    return outputs


def compute_rm_score(outputs_flat: list[dict]) -> tuple[list[float], dict[str, list]]:
    scores = [item["reward_score"] for item in outputs_flat]
    reward_extra_infos = [output.get("reward_extra_info", {}) for output in outputs_flat]
    reward_extra_keys = list(reward_extra_infos[0].keys())
    non_tensor_batch = {}
    for key in reward_extra_keys:
        non_tensor_batch[key] = [info[key] for info in reward_extra_infos]
    return scores, non_tensor_batch


# --- end of verl's code ----------------------------------------------------------------------


def row(data_source: str, response: str, ground_truth: Any, extra_info: dict | None = None) -> dict:
    non_tensor: dict[str, Any] = {"data_source": data_source, "reward_model": {"ground_truth": ground_truth}}
    if extra_info is not None:
        non_tensor["extra_info"] = extra_info
    return {"non_tensor_batch": non_tensor, "response": response}


#: (data source, response, ground truth, expected score, expected judged)
CASES: list[tuple[str, str, Any, float, int]] = [
    ("openai/gsm8k", "48 + 24 = 72 clips.\n#### 72", "72", 1.0, 1),
    ("openai/gsm8k", "48 + 22 = 70 clips.\n#### 70", "72", 0.0, 1),
    ("math_dapo", "So x = 3.\nAnswer: 3", "3", 1.0, 1),
    ("aime_2024", "The remainder is \\boxed{116}.", "116", 1.0, 1),
    ("HuggingFaceH4/MATH-500", "\\boxed{\\frac{\\sqrt{2}}{2}}", "\\frac{1}{\\sqrt{2}}", 1.0, 1),
    ("Idavidrein/gpqa", "The answer is (C).", "C", 1.0, 1),
    # A reference the math verifier cannot read: not judged, and marked so.
    ("math_dapo", "\\boxed{3}", "\\frac{", 0.0, 0),
]


def run_reward_loop(compute_score, rows: list[dict]) -> tuple[list[float], dict[str, list]]:
    """One reward-loop worker's share of a batch, on its own event loop as verl runs it."""

    async def main() -> list[dict]:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=32))
        return await compute_score_batch(NaiveRewardManager(compute_score, loop), rows)

    return compute_rm_score(asyncio.run(main()))


@pytest.mark.parametrize("name", ["compute_score_async", "compute_score"])
def test_verl_reward_loop(adapter_env: str, name: str) -> None:
    module = load_by_path(PACKAGE / "verl.py", "custom_module")
    cases = CASES * 12
    rows = [row(source, response, truth, {"index": i}) for i, (source, response, truth, _, _) in enumerate(cases)]
    before = requests_served(adapter_env, "/v1/score")
    scores, extra = run_reward_loop(getattr(module, name), rows)
    assert scores == [case[3] for case in cases]
    assert extra["judged"] == [case[4] for case in cases]
    assert extra["acc"] == [case[3] == 1.0 for case in cases]
    assert all(type(v) is int for v in extra["judged"]), "numeric, so verl can average it"
    # Every rollout went through the batcher, in as many requests as it sent batches.
    from referee_client import _env

    batcher = _env.shared_batcher()
    assert requests_served(adapter_env, "/v1/score") - before == batcher.batches
    assert batcher.batches <= len(rows)


def test_verl_rollouts_are_recorded_in_a_run(adapter_env: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module = load_by_path(PACKAGE / "verl.py", "custom_module")
    run = f"verl-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("REFEREE_RUN", run)
    # Each case is a prompt of verl's training split, rolled out four times; a validation row of
    # the same index is another prompt.
    rows = [
        row(source, response, truth, {"split": "train", "index": i})
        for i, (source, response, truth, _, _) in enumerate(CASES)
        for _ in range(4)
    ]
    rows.append(row(*CASES[0][:3], {"split": "test", "index": 0}))
    scores, _ = run_reward_loop(module.compute_score_async, rows)
    assert scores == [case[3] for case in CASES for _ in range(4)] + [CASES[0][3]]
    prompts = recorded_prompts(adapter_env, run, len(rows))
    # The unjudged case (its reference unreadable: `invalid_input`) is recorded but is no attempt,
    # so its prompt has no pass rate and is not listed (docs/runs.md).
    expected = {f"train/{i}": (4, 4 * int(case[3] == 1.0), 0) for i, case in enumerate(CASES) if case[4]}
    expected["test/0"] = (1, 1, 0)
    assert prompts == expected


# --- verl's legacy batch manager --------------------------------------------------------------
# Copied from volcengine/verl v0.6.1 (commit d62da4950573d7a4b7ef2362337952e7ab59e78d), Apache
# License 2.0, verl/workers/reward_manager/batch.py: BatchRewardManager.verify and the score loop
# of __call__. Changed only where verl's types are not installed here: DataProto rows are dicts,
# responses are already decoded, the reward tensor is a list and the examples are not printed.


def legacy_batch_manager(compute_score, data: list[dict]) -> tuple[list[float], dict[str, list]]:
    def verify(data):
        responses_str = [item["response"] for item in data]
        ground_truths = [item["non_tensor_batch"]["reward_model"].get("ground_truth", None) for item in data]
        data_sources = [item["non_tensor_batch"]["data_source"] for item in data]
        rollout_reward_scores = [{} for _ in range(len(data))]
        extras = [item["non_tensor_batch"].get("extra_info", {}) for item in data]

        for i in range(len(data)):
            extras[i]["rollout_reward_scores"] = rollout_reward_scores[i]

        scores = compute_score(
            data_sources=data_sources,
            solution_strs=responses_str,
            ground_truths=ground_truths,
            extra_infos=extras,
        )

        return scores

    reward_extra_info = defaultdict(list)
    scores = verify(data)
    rewards = []
    for i in range(len(data)):
        score = scores[i]

        if isinstance(score, dict):
            reward = score["score"]
            for key, value in score.items():
                reward_extra_info[key].append(value)
        else:
            reward = score

        rewards.append(reward)
    return rewards, reward_extra_info


def test_verl_legacy_batch_manager(adapter_env: str) -> None:
    module = load_by_path(PACKAGE / "verl.py", "custom_module")
    rows = [row(source, response, truth, {"index": i}) for i, (source, response, truth, _, _) in enumerate(CASES)]
    before = requests_served(adapter_env, "/v1/score")
    rewards, extra = legacy_batch_manager(module.compute_score_batch, rows)
    assert requests_served(adapter_env, "/v1/score") == before + 1, "one request per batch"
    assert rewards == [c[3] for c in CASES]
    assert extra["judged"] == [c[4] for c in CASES]
    assert sorted(extra) == ["acc", "judged", "score"]


def test_verl_reward_loop_under_load(adapter_env: str) -> None:
    from . import load

    module = load_by_path(PACKAGE / "verl.py", "custom_module")
    rows = [row("my_code", load.PROGRAM, load.ground_truth(i), {"verifier": "code"}) for i in range(load.ROLLOUTS)]
    scores, extra = run_reward_loop(module.compute_score_async, rows)
    assert scores == [load.expected_score(i) for i in range(load.ROLLOUTS)]
    assert extra["judged"] == [1] * load.ROLLOUTS
