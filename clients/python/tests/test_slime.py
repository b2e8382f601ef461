"""slime calling `referee_client.slime.reward` through `--custom-rm-path`, with and without
`--group-rm`, with slime's own calling code, against a live server."""

from __future__ import annotations

import asyncio
import importlib
import json
import urllib.request
import uuid
from argparse import Namespace
from dataclasses import dataclass, field
from typing import Any

import pytest

from .test_adapters import digest, recorded_prompts, requests_served

# --- slime's calling code --------------------------------------------------------------------
# Copied from THUDM/slime at commit 624b824a898ab0ec1fcb4d373004c7f3852bf515, Apache License 2.0:
#   slime/utils/misc.py            load_function
#   slime/rollout/rm_hub/__init__.py  async_rm (its custom_rm_path branches), batched_async_rm
#   slime/rollout/sglang_rollout.py   the group reward step of generate_group
#   slime/utils/types.py           Sample (the fields the reward path reads), get_reward_value
#   slime/ray/rollout.py           the loss mask of a removed sample
# Changed only where slime's types are not installed here: Sample keeps only those fields.


def load_function(path):
    module_path, _, attr = path.rpartition(".")
    module = importlib.import_module(module_path)
    return getattr(module, attr)


@dataclass
class Sample:
    group_index: int | None = None
    index: int | None = None
    prompt: str | list[dict[str, str]] = ""
    response: str = ""
    response_length: int = 0
    label: str | None = None
    reward: float | dict[str, Any] | None = None
    loss_mask: list[int] | None = None
    remove_sample: bool = False
    metadata: dict = field(default_factory=dict)
    custom_rm_path: str | None = None

    def get_reward_value(self, args) -> float:
        return self.reward if not args.reward_key else self.reward[args.reward_key]


async def async_rm(args, sample: Sample, **kwargs):
    # Per-sample custom_rm_path (from eval dataset config) takes priority
    if sample.custom_rm_path:
        rm_function = load_function(sample.custom_rm_path)
        return await rm_function(args, sample, **kwargs)

    if args.custom_rm_path is not None:
        rm_function = load_function(args.custom_rm_path)
        return await rm_function(args, sample, **kwargs)
    raise NotImplementedError("only the custom_rm_path branch is copied")


async def batched_async_rm(
    args,
    samples: list[Sample],
    **kwargs,
) -> list[int | float]:
    if args.custom_rm_path is not None:
        # Ensure the custom reward function is implemented in batch mode
        rm_function = load_function(args.custom_rm_path)
        return await rm_function(args, samples, **kwargs)
    tasks = [async_rm(args, sample, **kwargs) for sample in samples]
    rewards = await asyncio.gather(*tasks)
    return rewards


async def group_reward(args, group: list[Sample]) -> list[Sample]:
    # for the rm that need the whole group, we will do the rm here
    if args.group_rm:
        rewards = await batched_async_rm(args, group)
        for sample, reward in zip(group, rewards, strict=False):
            sample.reward = reward
    return group


def loss_masks(samples: list[Sample]) -> list[list[int]]:
    masks = []
    for sample in samples:
        if sample.loss_mask is None:
            sample.loss_mask = [1] * sample.response_length
        if sample.remove_sample:
            sample.loss_mask = [0] * sample.response_length
        masks.append(sample.loss_mask)
    return masks


# --- end of slime's code ---------------------------------------------------------------------

RM = "referee_client.slime.reward"


def group() -> list[Sample]:
    """One prompt's rollouts; the last has a reference the math verifier cannot read."""
    rows = [("\\boxed{42}", "42", {}), ("It is 41.", "42", {}), ("Paris", "Paris", {"verifier": "exact-match"})]
    rows.append(("\\boxed{1}", "\\frac{", {}))
    return [Sample(prompt="Q", response=r, response_length=3, label=label, metadata=dict(m)) for r, label, m in rows]


def args(**overrides: Any) -> Namespace:
    return Namespace(
        **{"custom_rm_path": RM, "group_rm": False, "reward_key": None, "eval_reward_key": None, **overrides}
    )


def test_per_sample_rewards(adapter_env: str) -> None:
    a = args()

    async def rollout() -> list[Sample]:
        samples = group() * 8
        rewards = await asyncio.gather(*(async_rm(a, s) for s in samples))
        for sample, reward in zip(samples, rewards, strict=True):
            sample.reward = reward
        return samples

    samples = asyncio.run(rollout())
    assert [s.get_reward_value(a) for s in samples] == [1.0, 0.0, 1.0, 0.0] * 8
    assert [s.metadata["referee_status"] for s in samples[:4]] == ["correct", "incorrect", "correct", "invalid_input"]
    assert loss_masks(samples[:4]) == [[1, 1, 1], [1, 1, 1], [1, 1, 1], [0, 0, 0]]


def test_group_rm_with_reward_key(adapter_env: str) -> None:
    from referee_client import _env

    a = args(group_rm=True, reward_key="acc")
    batches = _env.shared_batcher().batches
    before = requests_served(adapter_env, "/v1/score")
    samples = asyncio.run(group_reward(a, group()))
    sent = _env.shared_batcher().batches - batches
    assert 1 <= sent <= 4 and requests_served(adapter_env, "/v1/score") - before == sent
    assert [s.get_reward_value(a) for s in samples] == [1.0, 0.0, 1.0, 0.0]
    assert [s.reward["judged"] for s in samples] == [1, 1, 1, 0]
    assert samples[3].reward["status"] == "invalid_input"
    assert samples[3].remove_sample


def test_unjudged_kept_when_asked(adapter_env: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_SLIME_MASK_UNJUDGED", "0")
    samples = asyncio.run(group_reward(args(group_rm=True), group()))
    assert [s.reward for s in samples] == [1.0, 0.0, 1.0, 0.0]
    assert not any(s.remove_sample for s in samples)
    assert samples[3].metadata["referee_status"] == "invalid_input"


def test_default_verifier_from_the_environment(adapter_env: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_SLIME_VERIFIER", "multiple-choice")
    sample = Sample(response="The answer is (B).", label="B")
    assert asyncio.run(async_rm(args(), sample)) == 1.0


def test_per_sample_rewards_under_load(adapter_env: str) -> None:
    from . import load

    a = args()
    samples = [
        Sample(response=load.PROGRAM, label=load.ground_truth(i), metadata={"verifier": "code"})
        for i in range(load.ROLLOUTS)
    ]

    async def rollout() -> list:
        return await asyncio.gather(*(async_rm(a, s) for s in samples))

    assert asyncio.run(rollout()) == [load.expected_score(i) for i in range(load.ROLLOUTS)]


def test_rollouts_are_recorded_in_a_run(adapter_env: str, monkeypatch: pytest.MonkeyPatch) -> None:
    run = f"slime-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("REFEREE_RUN", run)
    # Two draws of prompt "Q" (groups 0 and 1) under --group-rm, and a prompt the dataset names.
    draws = [group(), group()]
    for index, draw in enumerate(draws):
        for sample in draw:
            sample.group_index = index
    named = [Sample(group_index=2, prompt="Q2", response=r, label="7", metadata={"prompt_id": "q-7"}) for r in "78"]
    for samples in [*draws, named]:
        asyncio.run(group_reward(args(group_rm=True), samples))
    # The unjudged rollout of each draw is recorded but is no attempt (docs/runs.md).
    assert recorded_prompts(adapter_env, run, 10) == {digest("Q"): (6, 4, 0), "q-7": (2, 1, 0)}
    stats = json.loads(urllib.request.urlopen(f"{adapter_env}/v1/runs/{run}/stats", timeout=10).read())
    assert stats["steps"][0]["groups"]["groups"] == 3, "one group per prompt draw"
