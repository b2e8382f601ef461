"""A real Referee server for the tests: the one at `REFEREE_URL` when set (scripts/test starts
one), else one started from the `referee` binary (`REFEREE_BINARY`, default
`$CARGO_TARGET_DIR/debug/referee`). Tests that need a particular configuration start their own."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def binary() -> Path:
    if os.environ.get("REFEREE_BINARY"):
        return Path(os.environ["REFEREE_BINARY"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", Path.home() / ".cache/referee/target"))
    return target / "debug" / "referee"


class Server:
    """A `referee serve` process on a free loopback port, with its own data directory."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        path = binary()
        if not path.exists():
            raise RuntimeError(f"{path} is missing; build it with `cargo build -p referee-server`")
        self._dir = tempfile.TemporaryDirectory()
        self._log = open(Path(self._dir.name) / "referee.log", "w+")  # noqa: SIM115 (open while the server runs)
        self.process = subprocess.Popen(
            [str(path), "serve", "--listen", "127.0.0.1:0", "--data-dir", str(Path(self._dir.name) / "data")],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {})},
        )
        self.url = self._wait_ready()

    def _wait_ready(self) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            self._log.seek(0)
            found = re.search(r"listening on (http://[0-9.:]+)", self._log.read())
            if found:
                try:
                    urllib.request.urlopen(found.group(1) + "/readyz", timeout=2)
                    return found.group(1)
                except OSError:
                    pass
            time.sleep(0.05)
        self._log.seek(0)
        log = self._log.read()
        self.stop()
        raise RuntimeError("the server did not become ready:\n" + log)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        self._dir.cleanup()


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    if os.environ.get("REFEREE_URL"):
        yield os.environ["REFEREE_URL"].rstrip("/")
        return
    server = Server()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def adapter_env(server_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Points the adapters' environment at the test server, with a fresh shared client."""
    from referee_client import _env

    monkeypatch.setenv("REFEREE_URL", server_url)
    monkeypatch.delenv("REFEREE_API_KEY", raising=False)
    monkeypatch.setattr(_env, "_shared", None)
    return server_url
