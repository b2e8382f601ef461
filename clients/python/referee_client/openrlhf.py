"""OpenRLHF: a `reward_func` file for `--remote_rm_url`, for when the trainer must send an API
key (OpenRLHF's own HTTP call sends none) or set the verifier per run.

    --remote_rm_url <site-packages>/referee_client/openrlhf.py

Without API keys, point OpenRLHF at the server itself: `--remote_rm_url
http://HOST:8080/get_reward?verifier=math`. This file posts the same request to that endpoint
with `Authorization: Bearer $REFEREE_API_KEY`, to `REFEREE_URL` (default
http://127.0.0.1:8080), for the verifier `REFEREE_OPENRLHF_VERIFIER` (default: the server's
`openrlhf.verifier`) and label field `REFEREE_OPENRLHF_LABEL_FIELD`.
"""

from __future__ import annotations

import os
from typing import Any

from referee_client import _env
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
    for key, name in (("verifier", "REFEREE_OPENRLHF_VERIFIER"), ("label_field", "REFEREE_OPENRLHF_LABEL_FIELD")):
        if os.environ.get(name):
            params[key] = os.environ[name]
    body = {"query": list(queries), "prompts": list(prompts), "labels": None if labels is None else list(labels)}
    client = _env.shared_client()
    response = client.post_json("/get_reward", body, params=params)
    answer = response.json()
    if len(answer["rewards"]) != len(queries):
        raise RefereeError(f"the server answered {len(answer['rewards'])} rewards for {len(queries)} queries")
    return {
        "rewards": _tensor(answer["rewards"]),
        "scores": _tensor(answer["scores"]),
        "extra_logs": {name: _tensor(values) for name, values in answer["extra_logs"].items()},
    }
