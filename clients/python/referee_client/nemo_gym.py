"""NeMo Gym: a resources server that forwards `/verify` to Referee.

    python -m referee_client.nemo_gym --host 127.0.0.1 --port 8000 --verifier math

NeMo Gym's agents post each rollout to their resources server's `POST /verify` as
`{"responses_create_params": {...}, "response": {...Responses API object...}, <dataset fields>}`
and read back the request echoed with a `reward`. This server answers that protocol with
Referee's verdict: the response text is the concatenated `output_text` parts of the response's
`message` outputs, the reference is the dataset field `--reference-field` (default
`expected_answer`; a dict there is merged into the verifier input), the verifier is the row's
`verifier` field or `--verifier` (default `math`). The answer adds `reward` (the score, 0 when not
judged), `judged` (1 or 0; a top-level number, so Gym's aggregate metrics report its mean) and
`referee_status`. Concurrent rollouts are sent to Referee together (see `_batch.py`).

It also serves `POST /seed_session` (no state), `POST /aggregate_metrics` (mean, min, max,
median and std of every numeric field, overall and per task), `GET /reverify_mode`
(`stateless`) and `GET /health`. A path that ends in one of these routes is that route, since Gym
may prefix rollout paths (`/ng-rollout/<id>/verify`). A body that is not a JSON object is a 400
with JSON `code` and `message`; a failure to reach Referee is a 502, never a reward.

With `--run NAME` (or `run` in Gym's configuration, or `REFEREE_RUN`), every rollout is
recorded in that training run (docs/runs.md) under its prompt id: Gym's task index
(`_ng_task_index`, the row's place in the dataset), else a digest of the request's input. Gym
hands a resources server no training step, so the rollouts are recorded at step 0.

When Gym starts it as a resources server's entrypoint (`NEMO_GYM_CONFIG_PATH` set), the host,
port, `verifier`, `reference_field` and `run` come from that server's entry in Gym's
configuration.
The Referee server is `REFEREE_URL` (default http://127.0.0.1:8080), with `REFEREE_API_KEY`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
from collections import defaultdict
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from referee_client import _env
from referee_client.client import Result, is_judged

__all__ = ["aggregate_metrics", "main", "make_server", "response_text", "verify"]

#: The largest request body read, in bytes; a rollout is far smaller.
MAX_BODY = 64 * 1024 * 1024
TASK_INDEX = "_ng_task_index"
ROLLOUT_INDEX = "_ng_rollout_index"


def response_text(response: Any) -> str:
    """The assistant text of a Responses API object, as Gym's own resources servers read it."""
    if not isinstance(response, dict):
        return ""
    parts = []
    for output in response.get("output") or []:
        if not isinstance(output, dict) or output.get("type") != "message":
            continue
        for content in output.get("content") or []:
            if isinstance(content, dict) and content.get("type") == "output_text":
                parts.append(str(content.get("text", "")))
    return "".join(parts)


def verify(
    body: dict[str, Any],
    score: Callable[[dict[str, Any]], Result],
    *,
    verifier: str = "math",
    reference_field: str = "expected_answer",
    run: str | None = None,
) -> dict[str, Any]:
    """The `/verify` answer for one request body: the body with `reward`, `judged` and
    `referee_status` added; recorded in training run `run` (else `REFEREE_RUN`) when one is set."""
    reference = body.get(reference_field)
    inputs: dict[str, Any] = dict(reference) if isinstance(reference, dict) else {}
    if reference is not None and not isinstance(reference, dict):
        inputs["reference"] = reference if isinstance(reference, str) else json.dumps(reference)
    inputs["response"] = response_text(body.get("response"))
    chosen = body.get("verifier") if isinstance(body.get("verifier"), str) and body.get("verifier") else verifier
    item: dict[str, Any] = {"verifier": chosen, "input": inputs}
    run = run or os.environ.get("REFEREE_RUN")
    if run:
        task = body.get(TASK_INDEX)
        if task is None:
            task = _env.prompt_digest((body.get("responses_create_params") or {}).get("input", ""))
        item.update(_env.run_fields(task, run=run))
    result = score(item)
    judged = is_judged(result)
    return {
        **body,
        "reward": float(result["score"]) if judged else 0.0,
        "judged": 1 if judged else 0,
        "referee_status": result["status"],
    }


def _stats(values: list[float]) -> dict[str, float]:
    return {
        "mean": statistics.fmean(values),
        "max": max(values),
        "min": min(values),
        "median": statistics.median(values),
        "std": statistics.pstdev(values),
    }


def _numeric(row: dict[str, Any]) -> dict[str, float]:
    skip = {TASK_INDEX, ROLLOUT_INDEX}
    return {
        k: float(v) for k, v in row.items() if k not in skip and isinstance(v, int | float) and not isinstance(v, bool)
    }


def aggregate_metrics(body: dict[str, Any]) -> dict[str, Any]:
    """Gym's `AggregateMetrics` shape for `{"verify_responses": [...]}`: statistics of every
    numeric top-level field, per task and overall; `key_metrics` are the overall means."""
    rows = [r for r in body.get("verify_responses") or [] if isinstance(r, dict)]
    if not rows:
        return {"group_level_metrics": [], "agent_metrics": {}, "key_metrics": {}}
    by_task: dict[Any, list[dict[str, float]]] = defaultdict(list)
    for row in rows:
        by_task[row.get(TASK_INDEX, 0)].append(_numeric(row))

    def summary(numeric_rows: list[dict[str, float]]) -> dict[str, float]:
        columns: dict[str, list[float]] = defaultdict(list)
        for numeric in numeric_rows:
            for key, value in numeric.items():
                columns[key].append(value)
        return {f"{stat}/{key}": v for key, values in columns.items() for stat, v in _stats(values).items()}

    overall = summary([n for task in by_task.values() for n in task])
    groups = [{TASK_INDEX: task, **summary(numeric)} for task, numeric in by_task.items()]
    return {
        "group_level_metrics": groups,
        "agent_metrics": overall,
        "key_metrics": {k: v for k, v in overall.items() if k.startswith("mean/")},
    }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        # One line per rollout would drown the trainer's log; errors are still answered as JSON.
        return

    def _send(self, status: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, code: str, message: str) -> None:
        self._send(status, {"code": code, "message": message})

    def _route(self) -> str:
        path = self.path.split("?", 1)[0].rstrip("/")
        return path.rsplit("/", 1)[-1] if path else ""

    def do_GET(self) -> None:
        route = self._route()
        if route == "reverify_mode":
            self._send(200, "stateless")
        elif route in ("", "health"):
            self._send(200, {"status": "ok"})
        else:
            self._error(404, "not_found", f"no route GET {self.path}")

    def do_POST(self) -> None:
        route = self._route()
        if route not in ("verify", "seed_session", "aggregate_metrics"):
            self._error(404, "not_found", f"no route POST {self.path}")
            return
        try:
            length = int(self.headers.get("content-length", "0"))
        except ValueError:
            self._error(400, "invalid_body", "content-length is not a number")
            return
        if length < 0 or length > MAX_BODY:
            self.close_connection = True
            self._error(413, "body_too_large", f"the body is over {MAX_BODY} bytes")
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError as e:
            self._error(400, "invalid_body", f"the body is not JSON: {e}")
            return
        if not isinstance(body, dict):
            self._error(400, "invalid_body", "the body is not a JSON object")
            return
        if route == "seed_session":
            self._send(200, {})
        elif route == "aggregate_metrics":
            self._send(200, aggregate_metrics(body))
        else:
            try:
                answer = verify(
                    body,
                    self.server.score,
                    verifier=self.server.verifier,
                    reference_field=self.server.reference_field,
                    run=self.server.run,
                )
            except Exception as e:  # noqa: BLE001 (any failure to get a verdict is the upstream's)
                self._error(502, "upstream_error", f"Referee did not judge the rollout: {e}")
                return
            self._send(200, answer)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # Gym opens one connection per concurrent rollout; the default backlog of 5 would reset
    # connections under a rollout burst.
    request_queue_size = 4096

    def __init__(self, address: tuple[str, int], verifier: str, reference_field: str, run: str | None) -> None:
        super().__init__(address, _Handler)
        self.verifier = verifier
        self.reference_field = reference_field
        self.run = run
        self.score: Callable[[dict[str, Any]], Result] = lambda item: _env.shared_batcher().score(item)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"


def make_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    verifier: str = "math",
    reference_field: str = "expected_answer",
    run: str | None = None,
) -> _Server:
    """The server, bound but not yet serving (call `serve_forever`, e.g. on a thread); port 0
    picks a free port (`server.url`)."""
    return _Server((host, port), verifier, reference_field, run)


def _gym_settings() -> dict[str, Any]:
    """This server's entry in Gym's configuration, when Gym started it."""
    name = os.environ.get("NEMO_GYM_CONFIG_PATH")
    if not name:
        return {}
    from nemo_gym.global_config import get_first_server_config_dict, get_global_config_dict

    return dict(get_first_server_config_dict(get_global_config_dict(), name))


def main(argv: list[str] | None = None) -> None:
    """`python -m referee_client.nemo_gym`: serve until interrupted."""
    gym = _gym_settings()
    parser = argparse.ArgumentParser(prog="python -m referee_client.nemo_gym", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default=gym.get("host") or "127.0.0.1")
    parser.add_argument("--port", type=int, default=int(gym.get("port") or 8000), help="0 picks a free port")
    parser.add_argument("--verifier", default=gym.get("verifier") or "math", help="when a row names none")
    parser.add_argument("--reference-field", default=gym.get("reference_field") or "expected_answer")
    parser.add_argument("--run", default=gym.get("run"), help="record the rollouts in this training run")
    args = parser.parse_args(argv)
    server = make_server(
        args.host, args.port, verifier=args.verifier, reference_field=args.reference_field, run=args.run
    )
    print(f"listening on {server.url}, forwarding to {_env.base_url()}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def serve_in_thread(server: _Server) -> threading.Thread:
    """Serves on a daemon thread (for embedding and tests); stop with `server.shutdown()`."""
    thread = threading.Thread(target=server.serve_forever, name="referee-nemo-gym", daemon=True)
    thread.start()
    return thread


if __name__ == "__main__":
    main(sys.argv[1:])
