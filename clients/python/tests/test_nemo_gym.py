"""NeMo Gym's simple agent calling the forwarding resources server `referee_client.nemo_gym`
(`POST /verify`, one rollout per call), with Gym's own calling code, against a live server."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import types
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import pytest
from referee_client import nemo_gym

from .test_adapters import digest, recorded_prompts

# --- NeMo Gym's calling code -----------------------------------------------------------------
# Copied from NVIDIA-NeMo/Gym at commit 07d6b0d07b22fcf530b4c211dae2ee23100428e4, Apache
# License 2.0: responses_api_agents/simple_agent/app.py (the verify step of SimpleAgent.run) and
# nemo_gym/server_utils.py (request, without its retry loop on dropped connections;
# ServerClient.post and the URL ServerClient.request builds, with the rollout path prefix Gym adds
# when observability is on; raise_for_status; get_response_json). Changed only where Gym is not
# installed here: orjson is json, the global aiohttp session is passed in, and the pydantic
# request model is the dict it dumps to.


async def request(session: aiohttp.ClientSession, method: str, url: str, **kwargs) -> aiohttp.ClientResponse:
    # Faster JSON dumps than the default aiohttp json
    if kwargs.get("json"):
        kwargs["data"] = json.dumps(kwargs.pop("json")).encode()
        kwargs.setdefault("headers", dict())  # noqa: C408 (as Gym wrote it)
        kwargs["headers"]["Content-Type"] = "application/json"
    return await session.request(method=method, url=url, **kwargs)


class ServerClient:
    def __init__(self, base_url: str, session: aiohttp.ClientSession, rollout_id: str | None = None) -> None:
        self.base_url = base_url
        self.session = session
        self.rollout_id = rollout_id

    async def post(self, server_name: str, url_path: str, **kwargs) -> aiohttp.ClientResponse:
        if self.rollout_id is not None and url_path == "/verify":
            url_path = f"/ng-rollout/{self.rollout_id}{url_path}"
        return await request(self.session, method="POST", url=f"{self.base_url}{url_path}", **kwargs)


async def raise_for_status(response: aiohttp.ClientResponse) -> None:
    if not response.ok:
        await response.content.read()
        response.raise_for_status()


async def get_response_json(response: aiohttp.ClientResponse) -> Any:
    return json.loads(await response.read())


async def agent_verify(server_client: ServerClient, body: dict, model_response_json: dict, cookies=None) -> dict:
    verify_request = body | {"response": model_response_json}
    verify_response = await server_client.post(
        server_name="referee",
        url_path="/verify",
        json=verify_request,
        cookies=cookies,
    )
    await raise_for_status(verify_response)
    result = await get_response_json(verify_response)
    return result


# --- end of Gym's code -----------------------------------------------------------------------


def responses_object(text: str) -> dict[str, Any]:
    """A Responses API object as Gym's model servers return it: reasoning, then a message."""
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 0,
        "model": "policy",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "the answer is 41"}]},
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            },
        ],
    }


def run_body(question: str, expected: Any, **extra: Any) -> dict[str, Any]:
    return {
        "responses_create_params": {"input": [{"role": "user", "content": question}]},
        "expected_answer": expected,
        **extra,
    }


@pytest.fixture
def gym_server(adapter_env: str) -> Iterator[str]:
    server = nemo_gym.make_server("127.0.0.1", 0)
    nemo_gym.serve_in_thread(server)
    try:
        yield server.url
    finally:
        server.shutdown()
        server.server_close()


ROLLOUTS = [
    (run_body("6*7?", "42", _ng_task_index=0, _ng_rollout_index=0), "So it is \\boxed{42}.", 1.0, 1),
    (run_body("6*7?", "42", _ng_task_index=0, _ng_rollout_index=1), "So it is \\boxed{41}.", 0.0, 1),
    (run_body("Capital?", "Paris", verifier="exact-match", _ng_task_index=1), "Paris", 1.0, 1),
    (run_body("Broken", "\\frac{", _ng_task_index=2), "\\boxed{1}", 0.0, 0),
]


def test_verify_one_rollout_per_call(gym_server: str) -> None:
    async def rollouts() -> list[dict]:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=600)) as session:
            calls = []
            for i, (body, text, _, _) in enumerate(ROLLOUTS * 10):
                client = ServerClient(gym_server, session, rollout_id=f"r{i}" if i % 2 else None)
                calls.append(agent_verify(client, body, responses_object(text)))
            return await asyncio.gather(*calls)

    results = asyncio.run(rollouts())
    for (body, text, reward, judged), result in zip(ROLLOUTS * 10, results, strict=True):
        assert result["reward"] == reward
        assert result["judged"] == judged
        # The request comes back whole, as Gym's response models expect.
        assert {k: result[k] for k in body} == body
        assert result["response"] == responses_object(text)
    assert results[3]["referee_status"] == "invalid_input"

    # Gym's aggregate metrics over the verify responses: `judged` is averaged like `reward`.
    with httpx.Client(timeout=60) as http:
        metrics = http.post(gym_server + "/aggregate_metrics", json={"verify_responses": results[:4]}).json()
        assert metrics["key_metrics"]["mean/reward"] == 0.5
        assert metrics["key_metrics"]["mean/judged"] == 0.75
        assert [g["_ng_task_index"] for g in metrics["group_level_metrics"]] == [0, 1, 2]
        assert metrics["group_level_metrics"][0]["mean/reward"] == 0.5
        assert http.post(gym_server + "/seed_session", json={}).json() == {}
        assert http.get(gym_server + "/reverify_mode").json() == "stateless"
        assert http.get(gym_server + "/").status_code == 200  # Gym's readiness poll


def test_rollouts_are_recorded_in_a_run(adapter_env: str) -> None:
    run = f"gym-{uuid.uuid4().hex[:8]}"
    server = nemo_gym.make_server("127.0.0.1", 0, run=run)
    nemo_gym.serve_in_thread(server)
    untracked = run_body("1+1?", "2")

    async def rollouts() -> list[dict]:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=600)) as session:
            client = ServerClient(server.url, session)
            bodies = [(body, text) for body, text, _, _ in ROLLOUTS] + [(untracked, "\\boxed{2}")]
            return await asyncio.gather(*(agent_verify(client, body, responses_object(text)) for body, text in bodies))

    try:
        results = asyncio.run(rollouts())
    finally:
        server.shutdown()
        server.server_close()
    assert [r["reward"] for r in results] == [1.0, 0.0, 1.0, 0.0, 1.0]
    # By Gym's task index, else a digest of the input; the unjudged rollout (task 2) is no attempt.
    prompt = json.dumps(untracked["responses_create_params"]["input"], sort_keys=True, ensure_ascii=False)
    assert recorded_prompts(adapter_env, run, 5) == {"0": (2, 1, 0), "1": (1, 1, 0), digest(prompt): (1, 1, 0)}


def test_bad_bodies_are_json_4xx(gym_server: str) -> None:
    with httpx.Client(timeout=60) as http:
        for content in (b"not json", b"[1, 2]"):
            answer = http.post(gym_server + "/verify", content=content, headers={"content-type": "application/json"})
            assert answer.status_code == 400
            assert answer.json()["code"] == "invalid_body"
        answer = http.post(gym_server + "/nope", json={})
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_an_unreachable_referee_is_a_502_not_a_reward(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee_client import _env

    monkeypatch.setenv("REFEREE_URL", "http://127.0.0.1:9")  # the discard port: refused
    monkeypatch.setattr(_env, "_shared", None)
    server = nemo_gym.make_server("127.0.0.1", 0)
    server.score = lambda item: _env.Referee(_env.base_url(), max_retries=0).score([item])[0]
    nemo_gym.serve_in_thread(server)
    try:
        answer = httpx.post(server.url + "/verify", json=run_body("q", "1") | {"response": responses_object("1")})
        assert answer.status_code == 502
        assert answer.json()["code"] == "upstream_error"
    finally:
        server.shutdown()
        server.server_close()
        monkeypatch.setattr(_env, "_shared", None)


def test_the_command_line(adapter_env: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(nemo_gym.__file__).parents[1])}
    process = subprocess.Popen(
        [sys.executable, "-m", "referee_client.nemo_gym", "--port", "0", "--reference-field", "answer"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        url = re.search(r"listening on (http://\S+),", process.stdout.readline())
        assert url, "the first line names the address"
        body = {"responses_create_params": {"input": []}, "answer": "42", "response": responses_object("\\boxed{42}")}
        assert httpx.post(url.group(1) + "/verify", json=body, timeout=60).json()["reward"] == 1.0
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_settings_from_gym_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    # What Gym's entrypoint launch provides: NEMO_GYM_CONFIG_PATH names this server's entry in the
    # global configuration, three levels deep (nemo_gym/global_config.py at the commit above).
    config = {"referee": {"resources_servers": {"referee": {"host": "0.0.0.0", "port": 8123, "verifier": "np"}}}}
    module = types.ModuleType("nemo_gym.global_config")
    module.get_global_config_dict = lambda: config  # type: ignore[attr-defined]

    def get_first_server_config_dict(global_config_dict, top_level_path):
        # Gym's own body, from the file named above.
        server_config_dict = global_config_dict[top_level_path]
        server_config_dict = list(server_config_dict.values())[0]  # noqa: RUF015
        server_config_dict = list(server_config_dict.values())[0]  # noqa: RUF015
        return server_config_dict

    module.get_first_server_config_dict = get_first_server_config_dict  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "nemo_gym", types.ModuleType("nemo_gym"))
    monkeypatch.setitem(sys.modules, "nemo_gym.global_config", module)
    monkeypatch.setenv("NEMO_GYM_CONFIG_PATH", "referee")
    assert nemo_gym._gym_settings() == {"host": "0.0.0.0", "port": 8123, "verifier": "np"}
    monkeypatch.delenv("NEMO_GYM_CONFIG_PATH")
    assert nemo_gym._gym_settings() == {}


def test_verify_under_load(gym_server: str) -> None:
    from . import load

    async def rollouts() -> list[dict]:
        connector = aiohttp.TCPConnector(limit=load.ROLLOUTS)
        async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=600)) as session:
            client = ServerClient(gym_server, session)
            return await asyncio.gather(
                *(
                    agent_verify(
                        client,
                        run_body("code", load.ground_truth(i), verifier="code"),
                        responses_object(load.PROGRAM),
                    )
                    for i in range(load.ROLLOUTS)
                )
            )

    results = asyncio.run(rollouts())
    assert [r["reward"] for r in results] == [load.expected_score(i) for i in range(load.ROLLOUTS)]
    assert all(r["judged"] == 1 for r in results)
