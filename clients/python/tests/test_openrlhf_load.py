"""OpenRLHF's own reward-calling code against a default server under load: one rollout per
request, all at once, as OpenRLHF's single-turn executor sends them. Its request function retries
any error five times, a second apart, without reading `Retry-After`, then drops the reward; so
the server must hold these requests until there is room, and every reward must come back."""

# The copied OpenRLHF code is kept as written: nested `async with` and blind `except Exception`.
# ruff: noqa: SIM117, BLE001

from __future__ import annotations

import asyncio
import logging
import os

import pytest

from .conftest import Server

aiohttp = pytest.importorskip("aiohttp")
logger = logging.getLogger("openrlhf")


class SingleTurnRewardClient:
    """The HTTP reward path of OpenRLHF's `SingleTurnAgentExecutor`, copied verbatim from
    OpenRLHF (https://github.com/OpenRLHF/OpenRLHF, Apache-2.0), `openrlhf/utils/agent.py` at
    v0.11.0 (unchanged at commit 3c3be623): `_fetch_rewards_via_http` and its `_post_request`.
    Only the class around it is ours."""

    def __init__(self, remote_rm_url):
        reward_endpoints = [remote_rm_url] if isinstance(remote_rm_url, str) else remote_rm_url
        self.reward_endpoints = reward_endpoints or []

    # --- copied from OpenRLHF ---------------------------------------------------------------
    async def _fetch_rewards_via_http(self, queries_list, prompts_list, labels_list):
        """HTTP fallback: shard requests across servers."""
        num_servers = len(self.reward_endpoints)
        batch_size = (len(queries_list) + num_servers - 1) // num_servers
        timeout = aiohttp.ClientTimeout(total=180)

        tasks = []
        for i, rm in enumerate(self.reward_endpoints):
            start_idx = i * batch_size
            end_idx = min((i + 1) * batch_size, len(queries_list))
            payload = {
                "query": queries_list[start_idx:end_idx],
                "prompts": prompts_list[start_idx:end_idx],
                "labels": labels_list[start_idx:end_idx],
            }

            async def _post_request(url, data, try_max_times=5):
                for _ in range(try_max_times):
                    try:
                        async with aiohttp.ClientSession(timeout=timeout) as session:
                            async with session.post(url, json=data) as response:
                                response.raise_for_status()
                                return await response.json()
                    except aiohttp.ClientError as e:
                        logger.info(f"Request error, please check: {e}")
                    except Exception as e:  # pragma: no cover - defensive
                        logger.info(f"Unexpected error, please check: {e}")
                    await asyncio.sleep(1)

                raise RuntimeError(
                    f"Request error for {try_max_times} times, returning None. Please check the API server."
                )

            tasks.append(asyncio.create_task(_post_request(rm, payload)))
        return await asyncio.gather(*tasks)

    # --- end of the copy ----------------------------------------------------------------------

    async def reward(self, query: str, prompt: str, label: object) -> float | None:
        """What `SingleTurnAgentExecutor.execute` does with one rollout: a failed request is
        logged and the rollout keeps `reward=None`."""
        try:
            rewards_info_list = await self._fetch_rewards_via_http([query], [prompt], [label])
            rewards_info = rewards_info_list[0] if rewards_info_list else None
            return rewards_info.get("rewards") if rewards_info else None
        except Exception as e:
            logger.info(f"[SingleTurnExecutor] Failed to fetch reward from remote RM: {e}")
            return None


ROLLOUTS = 600
LOOP = 50_000
PROMPT = "<|im_start|>user\nRead n and print n plus the sum of i*i % 7 for i below {loop}.<|im_end|>\n<|im_start|>assistant\n"


def rollout(i: int) -> tuple[str, str, dict, float]:
    """A CPU-heavy Python `code` rollout: correct for even `i`, off by one for odd `i`."""
    off = i % 2
    program = f"n = int(input())\ns = 0\nfor i in range({LOOP}):\n    s += i * i % 7\nprint(s + n + {off})\n"
    expected = sum(i * i % 7 for i in range(LOOP)) + i
    label = {"language": "python", "tests": [{"stdin": f"{i}\n", "expected_stdout": f"{expected}\n"}]}
    prompt = PROMPT.format(loop=LOOP)
    return prompt + f"```python\n{program}```<|im_end|>", prompt, label, 1.0 - off


@pytest.fixture(scope="module")
def default_server():
    """A server with the default configuration (its own, so that the load meets no other test)."""
    server = Server()
    try:
        yield server.url
    finally:
        server.stop()


def test_600_concurrent_single_rollout_requests_all_get_their_reward(default_server: str) -> None:
    client = SingleTurnRewardClient(default_server + "/get_reward?verifier=code")
    rollouts = [rollout(i) for i in range(ROLLOUTS)]

    async def all_rewards() -> list[float | None]:
        return await asyncio.gather(*(client.reward(q, p, label) for q, p, label, _ in rollouts))

    rewards = asyncio.run(all_rewards())
    lost = [i for i, r in enumerate(rewards) if r is None]
    assert not lost, f"{len(lost)} of {ROLLOUTS} rewards lost"
    assert rewards == [[expected] for *_, expected in rollouts]


def test_the_reward_func_file_keeps_every_reward_when_refused_for_load(monkeypatch) -> None:
    """OpenRLHF calls a reward-function file once per rollout, each from its own thread. On a
    server that refuses rather than holds (no waiting room, a one-item code queue), the file
    keeps sending a refused request until it is scored."""
    import concurrent.futures
    import importlib.util

    from referee_client import _env

    server = Server({"REFEREE__SERVER__MAX_WAITING_REQUESTS": "0", "REFEREE__CODE__MAX_PENDING_ITEMS": "1"})
    try:
        monkeypatch.setenv("REFEREE_URL", server.url)
        monkeypatch.delenv("REFEREE_API_KEY", raising=False)
        monkeypatch.setenv("REFEREE_OPENRLHF_VERIFIER", "code")
        monkeypatch.setattr(_env, "_shared", None)
        import referee_client

        path = os.path.join(os.path.dirname(referee_client.__file__), "openrlhf.py")
        spec = importlib.util.spec_from_file_location("reward_func", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        rollouts = [rollout(i) for i in range(24)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=24) as pool:
            outs = list(pool.map(lambda r: module.reward_func([r[0]], [r[1]], [r[2]]), rollouts))
        assert [list(out["rewards"]) for out in outs] == [[expected] for *_, expected in rollouts]
        assert _env.shared_client().retries > 0, "the server refused none: the test did not load it"
    finally:
        if _env._shared is not None:
            _env._shared.close()
        monkeypatch.setattr(_env, "_shared", None)
        server.stop()
