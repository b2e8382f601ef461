"""OpenRLHF: a `reward_func` file for the remote reward URL, for when the trainer must send an
API key (OpenRLHF's own HTTP call sends none) or set the verifier per run.

    --reward.remote_url <site-packages>/referee_client/openrlhf.py   # OpenRLHF >= 0.10.2
    --remote_rm_url <site-packages>/referee_client/openrlhf.py       # OpenRLHF < 0.10.2

Without API keys, point OpenRLHF at the server itself: `--reward.remote_url
http://HOST:8080/get_reward?verifier=math` (`--remote_rm_url` before 0.10.2). This file posts the
same request to that endpoint with `Authorization: Bearer $REFEREE_API_KEY`, to `REFEREE_URL`
(default http://127.0.0.1:8080), for the verifier `REFEREE_OPENRLHF_VERIFIER` (default: the
server's `openrlhf.verifier`) and label field `REFEREE_OPENRLHF_LABEL_FIELD`. OpenRLHF calls it
once per rollout from a thread; the server holds these requests until there is room, and the
client retries a 503 after the server's `Retry-After`, so a reward is not dropped under load.

With `REFEREE_RUN`, the rollouts are recorded in that training run (docs/runs.md), each under
its prompt's digest; OpenRLHF hands a reward function no training step, so they are recorded at
step 0 (`?run=NAME&step=N` on the URL sets both without this file).
"""

from __future__ import annotations

import os
from typing import Any

from referee_client import _env
from referee_client._batch import patient
from referee_client.client import RefereeError

__all__ = ["reward_func"]


def _tensor(values: list[float]) -> Any:
    try:
        import torch
    except ImportError:
        return values
    return torch.tensor(values, dtype=torch.float)


def reward_func(queries: list[str], prompts: list[str], labels: list[Any] | None = None, **_: Any) -> dict[str, Any]:
    """OpenRLHF's custom reward function: `{"rewards", "scores", "extra_logs"}`, tensors when
    torch is installed."""
    params = {}
    for key, name in (
        ("verifier", "REFEREE_OPENRLHF_VERIFIER"),
        ("label_field", "REFEREE_OPENRLHF_LABEL_FIELD"),
        ("run", "REFEREE_RUN"),
    ):
        if os.environ.get(name):
            params[key] = os.environ[name]
    body = {"query": list(queries), "prompts": list(prompts), "labels": None if labels is None else list(labels)}
    client = _env.shared_client()
    # OpenRLHF logs a raised error and drops the reward, so a refusal for load (503 once the
    # server's waiting room is full) is sent again for up to REFEREE_PATIENCE_S seconds.
    send = patient(lambda _: [client.post_json("/get_reward", body, params=params).json()], _env.patience())
    answer = send([])[0]
    if len(answer["rewards"]) != len(queries):
        raise RefereeError(f"the server answered {len(answer['rewards'])} rewards for {len(queries)} queries")
    return {
        "rewards": _tensor(answer["rewards"]),
        "scores": _tensor(answer["scores"]),
        "extra_logs": {name: _tensor(values) for name, values in answer["extra_logs"].items()},
    }
