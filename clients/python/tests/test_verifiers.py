"""Referee's episodes driven by `verifiers` (PrimeIntellect), unmodified: verifiers 0.4.0's own
`openenv` taskset (`OpenEnvEnv`) connects to an existing OpenEnv server by `base_url`, so it
plays Referee's OpenEnv front (`/openenv/{environment}`) with no adapter. The model is a scripted
OpenAI-compatible chat-completions server; the agent is verifiers' chat-only `null` harness
(a uv-run program, in the local `subprocess` runtime) and the same loop in-process, which needs
neither `uv` nor the network."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import threading
import time
import types
from collections.abc import Iterator, Sequence
from typing import Self

import pytest
import requests

vf = pytest.importorskip("verifiers.v1")
pytest.importorskip("verifiers.v1.tasksets.openenv")
pytest.importorskip("openenv")
from aiohttp import web
from openai import AsyncOpenAI
from verifiers.v1.dialects.chat import message_to_wire
from verifiers.v1.harnesses.null import NullHarnessConfig
from verifiers.v1.runtimes import ProgramResult
from verifiers.v1.tasksets.openenv import OpenEnvConfig, OpenEnvEnvConfig


class ScriptedModel:
    """An OpenAI-compatible chat-completions server (streamed or not) whose reply is
    `replies[n]`, n the number of assistant messages already in the request."""

    def __init__(self, replies: Sequence[str]) -> None:
        self.replies = list(replies)
        self.requests: list[dict] = []
        self.url = ""

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        turn = sum(1 for m in body["messages"] if m["role"] == "assistant")
        text = self.replies[min(turn, len(self.replies) - 1)]
        head = {
            "id": f"c{len(self.requests)}",
            "created": int(time.time()),
            "model": body["model"],
        }
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        if not body.get("stream"):
            message = {"role": "assistant", "content": text}
            choice = {"index": 0, "message": message, "finish_reason": "stop"}
            return web.json_response(
                {
                    **head,
                    "object": "chat.completion",
                    "choices": [choice],
                    "usage": usage,
                }
            )
        response = web.StreamResponse(headers={"content-type": "text/event-stream"})
        await response.prepare(request)
        events = [
            {
                "choices": [
                    {
                        "index": 0,
                        "delta": {"role": "assistant", "content": text},
                        "finish_reason": None,
                    }
                ]
            },
            {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
            {"choices": [], "usage": usage},
        ]
        for event in events:
            chunk = {**head, "object": "chat.completion.chunk", **event}
            await response.write(f"data: {json.dumps(chunk)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        return response

    def __enter__(self) -> Self:
        loop = asyncio.new_event_loop()
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        runner = web.AppRunner(app)
        loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}/v1"  # type: ignore[union-attr]
        self._loop, self._runner = loop, runner
        self._thread = threading.Thread(target=loop.run_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


class InProcessChatConfig(vf.HarnessConfig):
    pass


class InProcessChat(vf.Harness[InProcessChatConfig]):
    """The `null` harness's loop (one completion per segment, through the rollout's interception
    endpoint) run in-process with `openai.AsyncOpenAI`: needs neither `uv` nor the network."""

    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_RESUME = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(
        self, ctx, trace, runtime, endpoint, secret, mcp_urls, data
    ) -> ProgramResult:  # type: ignore[no-untyped-def]
        system, prompt = self.resolve_prompt(data)
        messages = [{"role": "system", "content": system}] if system else []
        if isinstance(prompt, str):
            messages.append({"role": "user", "content": prompt})
        elif prompt:
            messages.extend(message_to_wire(m) for m in prompt)
        async with AsyncOpenAI(
            base_url=endpoint, api_key=secret, max_retries=0
        ) as client:
            await client.chat.completions.create(model=ctx.model, messages=messages)
        return ProgramResult(exit_code=0, stdout="", stderr="")


# verifiers loads a harness by id as a top-level module exporting it in `__all__`.
_plugin = types.ModuleType("referee_test_inprocess_chat")
_plugin.InProcessChat, _plugin.InProcessChatConfig = InProcessChat, InProcessChatConfig  # type: ignore[attr-defined]
_plugin.__all__ = ["InProcessChat", "InProcessChatConfig"]  # type: ignore[attr-defined]
sys.modules[_plugin.__name__] = _plugin


def harness(kind: str) -> vf.HarnessConfig:
    if kind == "inprocess":
        return InProcessChatConfig(id=_plugin.__name__)
    return NullHarnessConfig(id="null")


@pytest.fixture(params=["inprocess", "null"])
def harness_kind(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    if request.param == "null":
        # The null harness runs its chat program with `uv` (else it pip-installs uv into
        # ~/.local): use the one beside this interpreter, as scripts/requirements-test.txt has it.
        monkeypatch.setenv(
            "PATH",
            os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]]),
        )
        if shutil.which("uv") is None:
            pytest.skip("uv is not installed")
    yield request.param


def evaluate(
    base_url: str, resets: list[dict], replies: Sequence[str], kind: str
) -> tuple[list, ScriptedModel]:
    """One rollout per reset through `Env.run_episode`, as `vf-eval` runs them."""

    async def run(model: ScriptedModel) -> list:
        config = OpenEnvEnvConfig(
            taskset=OpenEnvConfig(id="openenv", base_url=base_url, resets=resets),
            player=vf.AgentConfig(
                harness=harness(kind), runtime=vf.SubprocessConfig(), max_turns=8
            ),
        )
        env = vf.load_environment(config)
        ctx = vf.ModelContext(
            model="scripted",
            client=vf.EvalClientConfig(
                base_url=model.url, api_key_var="REFEREE_TEST_NO_KEY"
            ),
        )
        async with env.serving():
            return [await env.run_episode(task, ctx) for task in env.taskset]

    with ScriptedModel(replies) as model:
        return asyncio.run(run(model)), model


def reward(episode) -> float:  # type: ignore[no-untyped-def]
    assert episode.ok, [(e.type, e.message) for e in episode.errors]
    (trace,) = episode.traces
    return trace.rewards["openenv_reward"].score


def test_python_tool(server_url: str, harness_kind: str) -> None:
    replies = [
        json.dumps(
            {
                "code": "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\nfib(10)"
            }
        ),
        json.dumps({"answer": "The answer is \\boxed{55}."}),
    ]
    reset = {
        "prompt": "What is the 10th Fibonacci number?",
        "answer_check": {"verifier": "math", "input": {"reference": "55"}},
        "max_calls": 4,
    }
    (episode,), model = evaluate(
        f"{server_url}/openenv/python-tool", [reset], replies, harness_kind
    )
    assert reward(episode) == 1.0
    # The model saw the first observation, then the cell's value, as user turns.
    first, second = (json.loads(r["messages"][-1]["content"]) for r in model.requests)
    assert (
        first["observation"]["prompt"] == reset["prompt"]
        and "code" in first["action_schema"]["properties"]
    )
    assert second["observation"]["value"] == "55", second


def test_np_feedback_takes_plain_text(server_url: str, harness_kind: str) -> None:
    generated = requests.post(
        f"{server_url}/v1/environments/tsp/instances",
        json={"level": 1, "seed": 11},
        timeout=30,
    )
    answer = generated.json()["instances"][0]["reference"]["answer"]
    # `response` is the only required field, so verifiers sends a plain reply as it.
    replies = ["Answer: [0, 0]", f"Answer: {answer}"]
    (episode,), _ = evaluate(
        f"{server_url}/openenv/np-feedback",
        [{"task": "tsp", "level": 1, "seed": 11}],
        replies,
        harness_kind,
    )
    assert reward(episode) > 0.0  # the np verifier's score of the feasible answer


def test_code_repair(server_url: str, harness_kind: str) -> None:
    reset = {
        "language": "python",
        "tests": [{"stdin": "2 3", "expected_stdout": "5"}],
        "hidden_tests": [{"stdin": "10 -3", "expected_stdout": "7"}],
        "max_attempts": 3,
    }
    replies = [
        json.dumps({"program": "a, b = map(int, input().split())\nprint(a * b)"}),
        json.dumps(
            {
                "response": "Fixed:\n```python\na, b = map(int, input().split())\nprint(a + b)\n```"
            }
        ),
    ]
    (episode,), model = evaluate(
        f"{server_url}/openenv/code-repair", [reset], replies, harness_kind
    )
    assert reward(episode) == 1.0
    # The second request showed the model the first attempt's failure.
    failure = json.loads(model.requests[1]["messages"][-1]["content"])["observation"][
        "first_failure"
    ]
    assert failure["output"] == "6\n", failure
