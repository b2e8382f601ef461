"""slime: a custom reward function for `--custom-rm-path`.

    --custom-rm-path referee_client.slime.reward              # one rollout per call
    --custom-rm-path referee_client.slime.reward --group-rm   # one call per group of rollouts

slime awaits `reward(args, sample)` for each rollout, or `reward(args, samples)` with a whole
group under `--group-rm`; both go through a per-process batcher that sends the rollouts queued
from every concurrent call as one request whenever a request slot is free. The response is
`sample.response` (slime keeps the prompt apart); the verifier is `sample.metadata["verifier"]`
when set, else `REFEREE_SLIME_VERIFIER` (default `math`); the label is the verifier's `reference`
(a dict label is merged into the input).

The reward is the score as a float, what slime expects without `--reward-key`. With
`--reward-key K` (or `--eval-reward-key`) it is a dict with the score under `K` (and `score`),
`judged` (1 or 0) and `status`. A rollout the server could not judge (status `timeout`,
`resource_limit`, `invalid_input` or `internal_error`) scores 0 and gets `remove_sample = True`,
which gives it a zero loss mask, unless `REFEREE_SLIME_MASK_UNJUDGED=0`; its status is kept in
`sample.metadata["referee_status"]` either way. The server is `REFEREE_URL` (default
http://127.0.0.1:8080), with `REFEREE_API_KEY` when keys are configured.

With `REFEREE_RUN`, every rollout is recorded in that training run (docs/runs.md): its prompt id
is `sample.metadata["prompt_id"]`, else a digest of `sample.prompt`; its group is slime's
`sample.group_index` (the rollouts of one prompt draw). slime hands a reward function no rollout
step, so the rollouts are recorded at step 0.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from referee_client import _env
from referee_client.client import Result, is_judged

__all__ = ["reward"]


def _item(sample: Any) -> dict[str, Any]:
    metadata = sample.metadata if isinstance(getattr(sample, "metadata", None), dict) else {}
    verifier = metadata.get("verifier")
    if not isinstance(verifier, str) or not verifier:
        verifier = os.environ.get("REFEREE_SLIME_VERIFIER", "math")
    label = sample.label
    inputs: dict[str, Any] = dict(label) if isinstance(label, dict) else {}
    if label is not None and not isinstance(label, dict):
        inputs["reference"] = label if isinstance(label, str) else str(label)
    inputs["response"] = sample.response
    item: dict[str, Any] = {"verifier": verifier, "input": inputs}
    if os.environ.get("REFEREE_RUN"):
        prompt = metadata.get("prompt_id")
        if prompt is None:
            prompt = _env.prompt_digest(getattr(sample, "prompt", ""))
        item.update(_env.run_fields(prompt, getattr(sample, "group_index", None)))
    return item


def _reward(args: Any, sample: Any, result: Result) -> float | dict[str, Any]:
    judged = is_judged(result)
    score = float(result["score"]) if judged else 0.0
    if isinstance(getattr(sample, "metadata", None), dict):
        sample.metadata["referee_status"] = result["status"]
    if not judged and os.environ.get("REFEREE_SLIME_MASK_UNJUDGED", "1") != "0":
        sample.remove_sample = True
    keys = {k for k in (getattr(args, "reward_key", None), getattr(args, "eval_reward_key", None)) if k}
    if not keys:
        return score
    reward: dict[str, Any] = {"score": score, "judged": 1 if judged else 0, "status": result["status"]}
    for key in keys:
        reward[key] = score
    return reward


async def reward(args: Any, sample: Any, **_: Any) -> Any:
    """slime's custom reward: one sample gives its reward, a list (`--group-rm`) a list."""
    batcher = _env.shared_batcher()
    if isinstance(sample, list):
        results = await asyncio.gather(*(batcher.score_async(_item(one)) for one in sample))
        return [_reward(args, one, result) for one, result in zip(sample, results, strict=True)]
    return _reward(args, sample, await batcher.score_async(_item(sample)))
