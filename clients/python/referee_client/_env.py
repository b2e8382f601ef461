"""Settings the adapters read from the environment, since trainers load them by name."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import threading
import weakref
from typing import Any

from ._batch import Batcher, patient
from .client import DEFAULT_URL, AsyncReferee, Referee

_lock = threading.Lock()
_shared: Referee | None = None
_batcher: Batcher | None = None
#: The process that made `_shared`: a forked child (a process pool) must not reuse the
#: parent's connections, so it makes its own client.
_owner: int | None = None


def base_url() -> str:
    """`REFEREE_URL`, or the default local server."""
    return os.environ.get("REFEREE_URL", DEFAULT_URL).rstrip("/")


def api_key() -> str | None:
    """`REFEREE_API_KEY`, when set and non-empty."""
    return os.environ.get("REFEREE_API_KEY") or None


def prompt_digest(prompt: Any) -> str:
    """A prompt's id when the dataset gives none: the first 16 hex digits of the SHA-256 of its
    text (or of its messages as sorted JSON), as the server's OpenRLHF route computes it."""
    text = prompt if isinstance(prompt, str) else json.dumps(prompt, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def run_fields(prompt_id: Any = None, group: Any = None, run: str | None = None) -> dict[str, Any]:
    """The fields that record an item in a training run: `run` (else `REFEREE_RUN`), with the
    prompt and group when known; none without a run."""
    run = run or os.environ.get("REFEREE_RUN")
    if not run:
        return {}
    fields: dict[str, Any] = {"run": run}
    if prompt_id is not None:
        fields["prompt_id"] = str(prompt_id)
    if group is not None:
        fields["group"] = str(group)
    return fields


def shared_client() -> Referee:
    """One synchronous client per process, made on first use from the environment."""
    global _shared, _batcher, _owner
    with _lock:
        if _shared is None or _owner != os.getpid():
            _shared = Referee(base_url(), api_key=api_key())
            _batcher = None
            _owner = os.getpid()
        return _shared


def env_float(name: str, default: float) -> float:
    """A number from the environment, or `default` when unset; a malformed value is an error
    that names the variable, not a silent default."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"{name}={value!r} is not a number") from None


def patience() -> float:
    """`REFEREE_PATIENCE_S` (default 600): how long an adapter keeps sending a request again while
    the server answers 429 or 503, before the trainer sees the error."""
    return env_float("REFEREE_PATIENCE_S", 600.0)


def shared_batcher() -> Batcher:
    """One [`Batcher`] per process over [`shared_client`]: single-rollout calls from any thread
    or event loop are sent together. `REFEREE_BATCH_WINDOW_MS` (default 0: no wait, so a lone
    caller pays no latency; rollouts that arrive while every slot is busy still go together) is
    how long a batch waits for more rollouts; `REFEREE_BATCH_MAX_ITEMS` (default 1000) caps it;
    `REFEREE_BATCH_CONCURRENCY` (default 4) is the number of batches in flight."""
    global _batcher
    client = shared_client()
    with _lock:
        if _batcher is None:
            _batcher = Batcher(
                patient(client.score, patience()),
                window=env_float("REFEREE_BATCH_WINDOW_MS", 0.0) / 1000.0,
                max_items=int(env_float("REFEREE_BATCH_MAX_ITEMS", 1000)),
                concurrency=int(env_float("REFEREE_BATCH_CONCURRENCY", 4)),
            )
        return _batcher


_per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncReferee] = weakref.WeakKeyDictionary()


def loop_client() -> AsyncReferee:
    """One asyncio client per running event loop, made on first use from the environment."""
    loop = asyncio.get_running_loop()
    client = _per_loop.get(loop)
    if client is None:
        client = AsyncReferee(base_url(), api_key=api_key())
        _per_loop[loop] = client
    return client
