"""verl: a custom reward function.

    custom_reward_function.path=<site-packages>/referee_client/verl.py
    custom_reward_function.name=compute_score          # or compute_score_async, compute_score_batch

verl calls `compute_score(data_source=..., solution_str=..., ground_truth=..., extra_info=...)`
for each response (`compute_score_batch(data_sources=..., solution_strs=..., ...)` with the
batch reward manager). The data source picks the verifier: `extra_info["verifier"]` when set,
else `REFEREE_VERL_ROUTES` (a JSON object from data source, or a prefix ending in `*`, to
verifier id), else the built-in routes below, else `REFEREE_VERL_DEFAULT` (default `math`).
The ground truth is the verifier's `reference`; a dict ground truth is merged into the input.

The result is `{"score": float, "acc": bool}`: `acc` is true when the verdict is `correct`, so
DAPO's group filter (`algorithm.filter_groups.metric=acc`) works. The server is `REFEREE_URL`
(default http://127.0.0.1:8080), with `REFEREE_API_KEY` when keys are configured.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from referee_client import _env
from referee_client.client import Result

__all__ = ["compute_score", "compute_score_async", "compute_score_batch", "verifier_for"]

#: Data sources of verl's example datasets and their verifiers.
BUILTIN_ROUTES: dict[str, str] = {
    "openai/gsm8k": "math",
    "lighteval/MATH": "math",
    "DigitalLearningGmbH/MATH-lighteval": "math",
    "HuggingFaceH4/MATH-500": "math",
    "math_dapo": "math",
    "aime*": "math",
    "numina_*": "math",
    "Idavidrein/gpqa": "multiple-choice",
    "cais/mmlu": "multiple-choice",
}


def _routes() -> dict[str, str]:
    routes = dict(BUILTIN_ROUTES)
    extra = os.environ.get("REFEREE_VERL_ROUTES")
    if extra:
        routes.update(json.loads(extra))
    return routes


def verifier_for(data_source: str, extra_info: dict[str, Any] | None = None) -> str:
    """The verifier that judges responses from `data_source`."""
    if extra_info and isinstance(extra_info.get("verifier"), str):
        return extra_info["verifier"]
    routes = _routes()
    if data_source in routes:
        return routes[data_source]
    prefixes = [(p[:-1], v) for p, v in routes.items() if p.endswith("*") and data_source.startswith(p[:-1])]
    if prefixes:
        return max(prefixes, key=lambda pv: len(pv[0]))[1]
    return os.environ.get("REFEREE_VERL_DEFAULT", "math")


def _item(data_source: str, solution_str: str, ground_truth: Any, extra_info: dict[str, Any] | None) -> dict:
    inputs: dict[str, Any] = {}
    if isinstance(ground_truth, dict):
        inputs.update(ground_truth)
    elif ground_truth is not None:
        inputs["reference"] = ground_truth if isinstance(ground_truth, str) else str(ground_truth)
    inputs["response"] = solution_str
    return {"verifier": verifier_for(data_source, extra_info), "input": inputs}


def _reward(result: Result) -> dict[str, Any]:
    return {"score": float(result["score"]), "acc": result["status"] == "correct"}


def compute_score(
    data_source: str, solution_str: str, ground_truth: Any, extra_info: dict[str, Any] | None = None, **_: Any
) -> dict[str, Any]:
    """The reward of one response, `{"score": float, "acc": bool}`."""
    (result,) = _env.shared_client().score([_item(data_source, solution_str, ground_truth, extra_info)])
    return _reward(result)


async def compute_score_async(
    data_source: str, solution_str: str, ground_truth: Any, extra_info: dict[str, Any] | None = None, **_: Any
) -> dict[str, Any]:
    """[`compute_score`] for verl's asynchronous reward loop."""
    (result,) = await _env.loop_client().score([_item(data_source, solution_str, ground_truth, extra_info)])
    return _reward(result)


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[dict[str, Any] | None] | None = None,
    **_: Any,
) -> list[dict[str, Any]]:
    """The rewards of a whole batch in one request (verl's `reward_model.reward_manager=batch`)."""
    infos = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
    items = [_item(*row) for row in zip(data_sources, solution_strs, ground_truths, infos, strict=True)]
    return [_reward(result) for result in _env.shared_client().score(items)]
