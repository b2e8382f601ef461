"""verl: a custom reward function for both reward paths of verl.

    reward.custom_reward_function.path=<site-packages>/referee_client/verl.py
    reward.custom_reward_function.name=compute_score_async   # reward loop (verl >= 0.7, the default)
    reward.custom_reward_function.name=compute_score_batch   # legacy `reward_manager=batch`

verl's reward loop (`reward_model.use_reward_loop: true`, the default from 0.7) calls the
function once per rollout, all rollouts of a worker's share of the batch at once; a coroutine
(`compute_score_async`) is awaited on the worker's event loop, a plain function
(`compute_score`) runs on its thread pool. Both queue the rollout in a per-process batcher that
sends whatever has queued as one request whenever a request slot is free (see `_batch.py`), so the
server still judges whole batches. The legacy batch manager calls `compute_score_batch` with the
whole batch, which is sent as it is.

The data source picks the verifier: `extra_info["verifier"]` when set, else
`REFEREE_VERL_ROUTES` (a JSON object from data source, or a prefix ending in `*`, to verifier
id), else the built-in routes below, else `REFEREE_VERL_DEFAULT` (default `math`). The ground
truth is the verifier's `reference`; a dict ground truth is merged into the input; for the `code`
verifier, verl's APPS-style test cases are converted ([`code_input`]).

The result is `{"score": float, "acc": bool, "judged": int}`: `acc` is true when the verdict is
`correct` (DAPO's group filter reads it, `algorithm.filter_groups.metric=acc`), and `judged` is 0
when the server could not judge the rollout (status `timeout`, `resource_limit`, `invalid_input`
or `internal_error`; the score is then 0). verl keeps both in `reward_extra_info`. The server is
`REFEREE_URL` (default http://127.0.0.1:8080), with `REFEREE_API_KEY` when keys are configured.

With `REFEREE_RUN`, every rollout is recorded in that training run (docs/runs.md) under its
prompt id ([`prompt_id`]: `extra_info["prompt_id"]`, else the row's split and index); verl hands a
reward function no training step, so the rollouts are recorded at step 0.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from referee_client import _env
from referee_client.client import Result, is_judged

__all__ = [
    "BUILTIN_ROUTES",
    "code_input",
    "compute_score",
    "compute_score_async",
    "compute_score_batch",
    "prompt_id",
    "verifier_for",
]

#: The data sources that verl's `default_compute_score` knows (verl/utils/reward_score/__init__.py),
#: and two multiple-choice sets verl leaves to a custom function, with the verifier that judges them.
#: docs/integrations.md states each route's rule and where it differs from verl's scorer.
BUILTIN_ROUTES: dict[str, str] = {
    # verl: gsm8k.compute_score, the number after the last `####`, compared as text.
    "openai/gsm8k": "math",
    # verl: math_reward.compute_score, the last \boxed{} compared after string normalisation.
    "lighteval/MATH": "math",
    "DigitalLearningGmbH/MATH-lighteval": "math",
    "HuggingFaceH4/MATH-500": "math",
    # verl: math_dapo.compute_score, "Answer:" line or the last \boxed{}, Minerva normalisation.
    "math_dapo": "math",
    "math": "math",
    "math_dapo_reasoning": "math",
    "aime*": "math",
    # verl: prime_math.compute_score.
    "numina_*": "math",
    # verl: geo3k.compute_score, mathruler's grader on the last \boxed{} (plus a format bonus).
    "hiyouga/geometry3k": "math",
    # verl: prime_code.compute_score (or SandboxFusion), stdin/stdout tests from APPS-style
    # `{"inputs": [...], "outputs": [...]}` ground truths, the fraction of tests passed.
    "codecontests": "code",
    "apps": "code",
    "codeforces": "code",
    "taco": "code",
    # Not in verl's default scorer.
    "Idavidrein/gpqa": "multiple-choice",
    "cais/mmlu": "multiple-choice",
}


def _routes() -> dict[str, str]:
    routes = dict(BUILTIN_ROUTES)
    extra = os.environ.get("REFEREE_VERL_ROUTES")
    if extra:
        try:
            parsed = json.loads(extra)
        except ValueError as e:
            raise ValueError(f"REFEREE_VERL_ROUTES is not JSON: {e}") from None
        if not isinstance(parsed, dict) or not all(isinstance(v, str) for v in parsed.values()):
            raise ValueError("REFEREE_VERL_ROUTES must be a JSON object from data source to verifier id")
        routes.update(parsed)
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


def code_input(ground_truth: Any) -> dict[str, Any] | None:
    """The `code` verifier's input for verl's code ground truths: APPS-style
    `{"inputs": [stdin, ...], "outputs": [stdout, ...]}` (a dict or its JSON text) becomes Python
    stdin/stdout tests scored by the fraction passed. None for anything else, including
    call-based cases (`fn_name`), which are left for the verifier to refuse as `invalid_input`."""
    cases = ground_truth
    if isinstance(cases, str):
        try:
            cases = json.loads(cases)
        except ValueError:
            return None
    if not isinstance(cases, dict) or cases.get("fn_name"):
        return None
    inputs, outputs = cases.get("inputs"), cases.get("outputs")
    if not isinstance(inputs, list) or not isinstance(outputs, list) or len(inputs) != len(outputs) or not inputs:
        return None
    if not all(isinstance(text, str) for text in inputs + outputs):
        return None
    return {
        "language": "python",
        "tests": [{"stdin": i, "expected_stdout": o} for i, o in zip(inputs, outputs, strict=True)],
        "options": {"scoring": "fraction"},
    }


def prompt_id(extra_info: dict[str, Any] | None) -> str | None:
    """A rollout's prompt id in a run: `extra_info["prompt_id"]`, else the row's `index` (with its
    `split`, so a validation row is not taken for the training row of the same index, as verl's
    data preparation scripts number each split from 0), else none."""
    info = extra_info or {}
    if info.get("prompt_id") is not None:
        return str(info["prompt_id"])
    if info.get("index") is None:
        return None
    return f"{info['split']}/{info['index']}" if info.get("split") else str(info["index"])


def _item(data_source: str, solution_str: str, ground_truth: Any, extra_info: dict[str, Any] | None) -> dict:
    verifier = verifier_for(data_source, extra_info)
    converted = code_input(ground_truth) if verifier == "code" else None
    if converted is not None:
        item = {"verifier": verifier, "input": {**converted, "response": solution_str}}
    else:
        inputs: dict[str, Any] = {}
        if isinstance(ground_truth, dict):
            inputs.update(ground_truth)
        elif ground_truth is not None:
            inputs["reference"] = ground_truth if isinstance(ground_truth, str) else str(ground_truth)
        inputs["response"] = solution_str
        item = {"verifier": verifier, "input": inputs}
    if os.environ.get("REFEREE_RUN"):
        item.update(_env.run_fields(prompt_id(extra_info)))
    return item


def _reward(result: Result) -> dict[str, Any]:
    # Every result has the same keys: verl builds `reward_extra_info` from the first one's keys.
    judged = is_judged(result)
    return {
        "score": float(result["score"]) if judged else 0.0,
        "acc": result["status"] == "correct",
        "judged": 1 if judged else 0,
    }


def compute_score(
    data_source: str, solution_str: str, ground_truth: Any, extra_info: dict[str, Any] | None = None, **_: Any
) -> dict[str, Any]:
    """The reward of one response, `{"score", "acc", "judged"}`; concurrent calls from several
    threads are sent together."""
    return _reward(_env.shared_batcher().score(_item(data_source, solution_str, ground_truth, extra_info)))


async def compute_score_async(
    data_source: str, solution_str: str, ground_truth: Any, extra_info: dict[str, Any] | None = None, **_: Any
) -> dict[str, Any]:
    """[`compute_score`] as a coroutine, for verl's reward loop: the rollouts awaited at once
    on the worker's event loop are sent together."""
    item = _item(data_source, solution_str, ground_truth, extra_info)
    return _reward(await _env.shared_batcher().score_async(item))


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[dict[str, Any] | None] | None = None,
    **_: Any,
) -> list[dict[str, Any]]:
    """The rewards of a whole batch in one request (verl's legacy `reward_manager=batch`)."""
    infos = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
    items = [_item(*row) for row in zip(data_sources, solution_strs, ground_truths, infos, strict=True)]
    return [_reward(result) for result in _env.shared_client().score(items)]
