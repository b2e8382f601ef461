"""AReaL: a reward function for `RLVRWorkflow` (and any workflow that takes `reward_fn`).

    RLVRWorkflow(reward_fn="referee_client.areal.reward_fn", ...)

AReaL calls `reward_fn(prompt, completions, prompt_ids, completion_ids, **data)` once per sample,
in a process pool (`AsyncRewardWrapper`), and gives up after 15 s with a reward of 0. So this is
a module-level (picklable) synchronous function whose whole call, retries included, is bounded
by `REFEREE_AREAL_TIMEOUT` seconds (default 12): the server is asked to judge within that budget
less a second, and a request refused with 429 or 503 or that could not connect is sent again
only while the budget lasts.

The verifier is the sample's `verifier` field, else `REFEREE_AREAL_VERIFIER` (default `math`);
the reference is the dataset field `REFEREE_AREAL_REFERENCE_KEY` (default `answer`; a dict there
is merged into the verifier input). The reward is the verdict's score.

A sample the server could not judge (status `timeout`, `resource_limit`, `invalid_input` or
`internal_error`), or could not be reached for within the budget, raises `Unjudged`: AReaL then
rejects the rollout (`rollout/rejected` in its stats) instead of training on a made-up 0. Set
`REFEREE_AREAL_UNJUDGED=zero` to get 0.0 instead. The server is `REFEREE_URL` (default
http://127.0.0.1:8080), with `REFEREE_API_KEY` when keys are configured.

With `REFEREE_RUN`, every sample is recorded in that training run (docs/runs.md) under its
prompt id: the dataset's `query_id` (AReaL's own datasets add one) or `prompt_id` field, else a
digest of the prompt. AReaL hands a reward function no training step, so the samples are recorded
at step 0.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from referee_client import _env
from referee_client.client import Referee, RefereeError, Result, is_judged

__all__ = ["Unjudged", "reward_fn"]

#: Refusals worth sending again while the budget lasts: back-pressure, not a verdict.
RETRY_STATUSES = frozenset({429, 503})

_lock = threading.Lock()
_clients: dict[tuple[int, float], Referee] = {}


class Unjudged(Exception):
    """The server could not judge the sample; AReaL rejects the rollout."""


def _client(timeout: float) -> Referee:
    # One per process (a pool worker must not share its parent's connections) and budget.
    key = (os.getpid(), timeout)
    with _lock:
        client = _clients.get(key)
        if client is None:
            client = Referee(_env.base_url(), api_key=_env.api_key(), timeout=timeout, max_retries=0)
            _clients[key] = client
        return client


def _item(prompt: Any, completions: str, data: dict[str, Any]) -> dict[str, Any]:
    key = os.environ.get("REFEREE_AREAL_REFERENCE_KEY", "answer")
    if key not in data:
        raise KeyError(f"the sample has no `{key}` field; set REFEREE_AREAL_REFERENCE_KEY")
    reference = data[key]
    inputs: dict[str, Any] = dict(reference) if isinstance(reference, dict) else {"reference": str(reference)}
    inputs["response"] = str(completions)
    verifier = data.get("verifier")
    if not isinstance(verifier, str) or not verifier:
        verifier = os.environ.get("REFEREE_AREAL_VERIFIER", "math")
    item: dict[str, Any] = {"verifier": verifier, "input": inputs}
    if os.environ.get("REFEREE_RUN"):
        ids = [data.get(field) for field in ("query_id", "prompt_id")]
        prompt_id = next((i for i in ids if i is not None), None)
        item.update(_env.run_fields(_env.prompt_digest(prompt) if prompt_id is None else prompt_id))
    return item


def _score(item: dict[str, Any], budget: float) -> Result:
    deadline = time.monotonic() + budget
    client = _client(budget)
    timeout_ms = max(1, int((budget - 1.0) * 1000))
    attempt = 0
    while True:
        try:
            if attempt == 0:
                return client.score([item], timeout_ms=timeout_ms)[0]
            # A retry may use only what is left of the budget, so it gets a client bounded by that.
            left = deadline - time.monotonic()
            with Referee(_env.base_url(), api_key=_env.api_key(), timeout=left, max_retries=0) as once:
                return once.score([item], timeout_ms=max(1, int((left - 1.0) * 1000)))[0]
        except RefereeError as e:
            retryable = e.status in RETRY_STATUSES or (e.status is None and "timed out" not in str(e))
            attempt += 1
            wait = min(0.25 * 2 ** (attempt - 1), 2.0)
            if not retryable or time.monotonic() + wait >= deadline:
                raise Unjudged(f"Referee did not judge the sample: {e}") from None
            time.sleep(wait)


def reward_fn(prompt: Any, completions: Any, prompt_ids: Any, completion_ids: Any, **data: Any) -> float:
    """The reward of one sample (AReaL's reward-function signature)."""
    budget = _env.env_float("REFEREE_AREAL_TIMEOUT", 12.0)
    unjudged_zero = os.environ.get("REFEREE_AREAL_UNJUDGED", "raise") == "zero"
    try:
        result = _score(_item(prompt, completions, data), budget)
    except Unjudged:
        if unjudged_zero:
            return 0.0
        raise
    if not is_judged(result):
        if unjudged_zero:
            return 0.0
        raise Unjudged(f"Referee could not judge the sample: status {result['status']}")
    return float(result["score"])
