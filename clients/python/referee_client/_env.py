"""Settings the adapters read from the environment, since trainers load them by name."""

from __future__ import annotations

import asyncio
import os
import threading
import weakref

from .client import DEFAULT_URL, AsyncReferee, Referee

_lock = threading.Lock()
_shared: Referee | None = None


def base_url() -> str:
    """`REFEREE_URL`, or the default local server."""
    return os.environ.get("REFEREE_URL", DEFAULT_URL).rstrip("/")


def api_key() -> str | None:
    """`REFEREE_API_KEY`, when set and non-empty."""
    return os.environ.get("REFEREE_API_KEY") or None


def shared_client() -> Referee:
    """One synchronous client per process, made on first use from the environment."""
    global _shared
    with _lock:
        if _shared is None:
            _shared = Referee(base_url(), api_key=api_key())
        return _shared


_per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncReferee] = weakref.WeakKeyDictionary()


def loop_client() -> AsyncReferee:
    """One asyncio client per running event loop, made on first use from the environment."""
    loop = asyncio.get_running_loop()
    client = _per_loop.get(loop)
    if client is None:
        client = AsyncReferee(base_url(), api_key=api_key())
        _per_loop[loop] = client
    return client
