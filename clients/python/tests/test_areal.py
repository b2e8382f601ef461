# ruff: noqa: RUF012, BLE001, TRY201 (AReaL's code below is kept as AReaL wrote it)
"""AReaL's `AsyncRewardWrapper` calling `referee_client.areal.reward_fn` in its process pool, with
AReaL's own calling code, against a live server."""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import pickle
import threading
import traceback
import uuid
import weakref
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial

import pytest

from .test_adapters import digest, recorded_prompts

# --- AReaL's calling code --------------------------------------------------------------------
# Copied from inclusionAI/AReaL at commit 4aef98d8d818af55b43621aaadba047ae10f4e77, Apache
# License 2.0: areal/api/reward_api.py (_get_device_count_safely and AsyncRewardWrapper, verbatim but for the
# logger and line wrapping),
# areal/utils/dynamic_import.py (import_from_string, without its error rewording) and the reward
# call of RLVRWorkflow._compute_rewards in areal/workflow/rlvr.py.

logger = logging.getLogger("RewardAPI")


def _get_device_count_safely() -> int:
    """
    Safely get device count without initializing CUDA context.
    """
    gpu_types = ["nvidia", "davinci"]
    try:
        if os.path.exists("/dev"):
            for gpu_type in gpu_types:
                devices = [f for f in os.listdir("/dev") if f.startswith(gpu_type) and f[len(gpu_type) :].isdigit()]
                if devices:
                    return len(devices)
    except (OSError, ValueError) as e:
        # /dev doesn't exist or can't read (e.g., Windows, macOS)
        logger.debug(f"Could not read device list from /dev, using fallback: {e}")

    # Fallback: assume 8 devices for cautious max_workers calculation
    return 8


def import_from_string(module_path: str):
    module_name, object_name = module_path.rsplit(".", 1)
    module = importlib.import_module(module_name)
    return getattr(module, object_name)


class AsyncRewardWrapper:
    """
    Wraps a synchronous reward function to make it async with timeout handling.
    Automatically manages ProcessPoolExecutor lifecycle based on instance count.
    Includes automatic recovery from broken process pools.
    """

    _executors = {}
    _instance_counts = {}
    _lock = threading.Lock()

    def __init__(
        self,
        reward_fn: Callable,
        timeout_seconds: float = 15,
        max_workers: int | None = None,
        max_retries: int = 3,
    ):
        self.reward_fn = reward_fn
        self.timeout_seconds = timeout_seconds
        if max_workers is None:
            cpu_count = os.cpu_count() or 1
            device_count = _get_device_count_safely()
            # Heuristic for max_workers: distribute CPU cores across devices,
            # then halve to be conservative, ensuring at least one worker.
            max_workers = max((cpu_count // device_count) // 2, 1)
        self.max_workers = max_workers
        self.max_retries = max_retries
        self._executor_key = max_workers

        with self._lock:
            if self._executor_key not in self._executors:
                self._executors[self._executor_key] = ProcessPoolExecutor(max_workers=max_workers)
                self._instance_counts[self._executor_key] = 0
            self._instance_counts[self._executor_key] += 1

        weakref.finalize(self, AsyncRewardWrapper._cleanup_executor, max_workers)

    @classmethod
    def _cleanup_executor(cls, executor_key):
        """Called when an AsyncRewardWrapper instance is garbage collected"""
        with cls._lock:
            if executor_key in cls._instance_counts:
                cls._instance_counts[executor_key] -= 1
                if cls._instance_counts[executor_key] <= 0:
                    if executor_key in cls._executors:
                        executor = cls._executors.pop(executor_key)
                        executor.shutdown(wait=False, cancel_futures=True)
                        logger.debug(f"ProcessPoolExecutor with {executor_key} workers shut down")
                    cls._instance_counts.pop(executor_key, None)

    @classmethod
    def _recreate_executor(cls, executor_key, max_workers):
        """Recreate a broken ProcessPoolExecutor"""
        with cls._lock:
            if executor_key in cls._executors:
                # Clean up the broken executor
                old_executor = cls._executors[executor_key]
                try:
                    old_executor.shutdown(wait=False)
                except Exception as e:
                    logger.warning(f"Error shutting down broken executor: {e}")

                # Create a new executor
                cls._executors[executor_key] = ProcessPoolExecutor(max_workers=max_workers)
                logger.info(f"Recreated ProcessPoolExecutor with {max_workers} workers")
                return cls._executors[executor_key]
        return None

    async def __call__(self, *args, **kwargs) -> float:
        last_exception = None

        for attempt in range(self.max_retries + 1):
            with self._lock:
                executor = self._executors.get(self._executor_key)

            if executor is None:
                raise RuntimeError("ProcessPoolExecutor has been shut down")

            loop = asyncio.get_event_loop()
            try:
                future = loop.run_in_executor(
                    executor,
                    partial(self.reward_fn, *args, **kwargs),
                )
                reward = await asyncio.wait_for(
                    future,
                    timeout=self.timeout_seconds,
                )
                return reward
            except TimeoutError:
                last_exception = TimeoutError(f"Reward computation timed out after {self.timeout_seconds}s")
                logger.warning(
                    f"Computing reward timeout after {self.timeout_seconds}s "
                    f"(attempt {attempt + 1}/{self.max_retries + 1}). "
                    f"{'Retrying...' if attempt < self.max_retries else 'Returning 0.'}"
                )
                if attempt < self.max_retries:
                    continue
                return 0
            except BrokenProcessPool as e:
                last_exception = e
                logger.warning(
                    f"ProcessPoolExecutor broken (attempt {attempt + 1}/{self.max_retries + 1}). "
                    "Attempting to recreate..."
                )
                if attempt < self.max_retries:
                    # Try to recreate the executor
                    new_executor = self._recreate_executor(self._executor_key, self.max_workers)
                    if new_executor is None:
                        logger.error("Failed to recreate ProcessPoolExecutor")
                        break
                    # Continue to next attempt
                    continue
                else:
                    logger.error("Max retries exceeded for BrokenProcessPool.")
                    traceback.print_exc()
                    raise e
            except Exception as e:
                last_exception = e
                logger.error(f"Unexpected error in reward computation: {e}")
                if attempt < self.max_retries:
                    logger.info(f"Retrying... (attempt {attempt + 1}/{self.max_retries + 1})")
                    continue
                else:
                    logger.error("Max retries exceeded for unexpected error.")
                    traceback.print_exc()
                    raise e

        # If we get here, all retries failed
        if last_exception:
            traceback.print_exc()
            raise last_exception
        else:
            raise RuntimeError("Reward computation failed after all retries.")


async def compute_rewards(async_reward_fn, prompt_str, completions_str, input_tokens, output_tokens, task_data):
    reward = await async_reward_fn(
        prompt_str,
        completions_str,
        input_tokens,
        output_tokens,
        **task_data,
    )
    return reward


# --- end of AReaL's code ---------------------------------------------------------------------

SAMPLES = [
    ("What is 6*7?", "So it is \\boxed{42}.<|im_end|>", {"answer": "Natalia... 6*7 = 42\n#### 42"}, 1.0),
    ("What is 6*7?", "It is 41.<|im_end|>", {"answer": "42"}, 0.0),
    ("Capital?", "Paris", {"answer": "Paris", "verifier": "exact-match"}, 1.0),
    ("2/4?", "\\boxed{0.5}", {"answer": "\\frac{1}{2}", "query_id": "q4"}, 1.0),
]
BROKEN = ("Broken", "\\boxed{1}", {"answer": "\\frac{"})


def episode(wrapper, samples) -> list:
    async def run():
        return await asyncio.gather(
            *(compute_rewards(wrapper, p, c, [1, 2], [3, 4], data) for p, c, data, *_ in samples),
            return_exceptions=True,
        )

    return asyncio.run(run())


def test_rewards_from_the_process_pool(adapter_env: str) -> None:
    reward_fn = import_from_string("referee_client.areal.reward_fn")
    assert pickle.loads(pickle.dumps(reward_fn)) is reward_fn
    wrapper = AsyncRewardWrapper(reward_fn, max_workers=3)
    results = episode(wrapper, SAMPLES * 6)
    assert results == [s[3] for s in SAMPLES * 6]


def test_unjudged_samples_are_rejected_not_zero(adapter_env: str) -> None:
    from referee_client.areal import Unjudged

    wrapper = AsyncRewardWrapper(import_from_string("referee_client.areal.reward_fn"), max_workers=5)
    results = episode(wrapper, [SAMPLES[0], BROKEN])
    assert results[0] == 1.0
    # AReaL retries, then the workflow fails and its executor rejects the rollout.
    assert isinstance(results[1], Unjudged)
    assert "invalid_input" in str(results[1])


def test_unjudged_as_zero_when_asked(adapter_env: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_AREAL_UNJUDGED", "zero")
    wrapper = AsyncRewardWrapper(import_from_string("referee_client.areal.reward_fn"), max_workers=6)
    assert episode(wrapper, [BROKEN, SAMPLES[0]]) == [0.0, 1.0]


def test_an_unreachable_server_is_unjudged_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee_client.areal import Unjudged, reward_fn

    monkeypatch.setenv("REFEREE_URL", "http://127.0.0.1:9")  # the discard port: refused
    monkeypatch.setenv("REFEREE_AREAL_TIMEOUT", "2")
    with pytest.raises(Unjudged):
        reward_fn("q", "\\boxed{1}", [], [], answer="1")


def test_a_missing_reference_field_is_named(adapter_env: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee_client.areal import reward_fn

    monkeypatch.setenv("REFEREE_AREAL_REFERENCE_KEY", "solution")
    with pytest.raises(KeyError, match="solution"):
        reward_fn("q", "1", [], [], answer="1")
    assert reward_fn("q", "\\boxed{1}", [], [], solution="1") == 1.0


def test_rewards_under_load(adapter_env: str) -> None:
    from . import load

    wrapper = AsyncRewardWrapper(import_from_string("referee_client.areal.reward_fn"), max_workers=8)
    samples = [("p", load.PROGRAM, {"answer": load.ground_truth(i), "verifier": "code"}) for i in range(load.ROLLOUTS)]
    assert episode(wrapper, samples) == [load.expected_score(i) for i in range(load.ROLLOUTS)]


def test_samples_are_recorded_in_a_run(adapter_env: str, monkeypatch: pytest.MonkeyPatch) -> None:
    run = f"areal-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("REFEREE_RUN", run)
    # A pool of its own (AReaL keys its pools by size), so its workers see the run.
    wrapper = AsyncRewardWrapper(import_from_string("referee_client.areal.reward_fn"), max_workers=4)
    assert episode(wrapper, SAMPLES * 2) == [s[3] for s in SAMPLES * 2]
    # By the dataset's `query_id` where it has one, else by a digest of the prompt.
    expected = {digest("What is 6*7?"): (4, 2, 0), digest("Capital?"): (2, 2, 0), "q4": (2, 2, 0)}
    assert recorded_prompts(adapter_env, run, 8) == expected
