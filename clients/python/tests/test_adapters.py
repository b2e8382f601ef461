"""Each trainer adapter, called the way its trainer calls it (the trainers themselves are not
installed), against a real server."""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import json
import re
import statistics
import time
import urllib.error
import urllib.request
import uuid
from collections import defaultdict
from pathlib import Path
from types import ModuleType

import pytest
import referee_client

PACKAGE = Path(referee_client.__file__).parent


def load_by_path(path: Path, name: str) -> ModuleType:
    """What verl (`custom_reward_function.path`) and OpenRLHF (`--remote_rm_url x.py`) do."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def requests_served(url: str, route: str) -> float:
    """The server's count of answered requests to `route`, from /metrics."""
    text = urllib.request.urlopen(url + "/metrics", timeout=10).read().decode()
    pattern = re.compile(r"^referee_http_requests_total\{(.*)\} (\S+)$", re.MULTILINE)
    return sum(float(v) for labels, v in pattern.findall(text) if f'route="{route}"' in labels)


# OpenRLHF ------------------------------------------------------------------------------------


def openrlhf_post(url: str, data: dict) -> dict:
    """OpenRLHF's `request_api_wrapper`: a JSON POST with only a content type; reads the JSON."""
    request = urllib.request.Request(
        url, data=json.dumps(data).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=180) as response:
        assert response.status == 200
        return json.loads(response.read())


PROMPTS = ["<|user|>What is 6*7?<|assistant|>", "<|user|>What is 2+2?<|assistant|>", "<|user|>1/2 as a decimal?"]
RESPONSES = ["The product is \\boxed{42}.", "It is \\boxed{5}.", "That is 0.5"]
LABELS = ["42", "4", "\\frac{1}{2}"]


def test_openrlhf_remote_reward_protocol(server_url: str) -> None:
    queries = [p + r for p, r in zip(PROMPTS, RESPONSES, strict=True)]
    answer = openrlhf_post(server_url + "/get_reward", {"query": queries, "prompts": PROMPTS, "labels": LABELS})
    assert answer["rewards"] == [1.0, 0.0, 1.0]
    assert answer["scores"] == answer["rewards"]
    assert answer["extra_logs"] == {"correct": [1.0, 0.0, 1.0], "judged": [1.0, 1.0, 1.0]}
    assert answer["statuses"] == ["correct", "incorrect", "correct"]

    # The prompt is cut off before scoring: "6*7" in the prompt is not read as the answer.
    answer = openrlhf_post(
        server_url + "/get_reward", {"query": [PROMPTS[0] + "no idea"], "prompts": [PROMPTS[0]], "labels": ["42"]}
    )
    assert answer["rewards"] == [0.0]

    # Other verifiers by query string; unjudged items are 0 and marked in extra_logs.
    answer = openrlhf_post(
        server_url + "/get_reward?verifier=multiple-choice",
        {"query": ["Q? The answer is (B).", "Q? (A)"], "prompts": ["Q?", "Q?"], "labels": ["B", None]},
    )
    assert answer["rewards"] == [1.0, 0.0]
    assert answer["extra_logs"]["judged"] == [1.0, 0.0]
    assert answer["statuses"] == ["correct", "invalid_input"]


def test_openrlhf_empty_step(server_url: str) -> None:
    answer = openrlhf_post(server_url + "/get_reward", {"query": [], "prompts": [], "labels": []})
    assert answer == {"rewards": [], "scores": [], "extra_logs": {"correct": [], "judged": []}, "statuses": []}


def test_openrlhf_reward_func_file(adapter_env: str, monkeypatch) -> None:
    module = load_by_path(PACKAGE / "openrlhf.py", "reward_func")
    queries = [p + r for p, r in zip(PROMPTS, RESPONSES, strict=True)]
    out = module.reward_func(queries, PROMPTS, LABELS)
    assert list(out["rewards"]) == [1.0, 0.0, 1.0]
    assert list(out["scores"]) == [1.0, 0.0, 1.0]
    assert list(out["extra_logs"]["correct"]) == [1.0, 0.0, 1.0]

    monkeypatch.setenv("REFEREE_OPENRLHF_VERIFIER", "exact-match")
    out = module.reward_func(["Q: Paris", "Q: Lyon"], ["Q: "], ["Paris", "Paris"])
    assert list(out["rewards"]) == [1.0, 0.0]


def recorded_prompts(url: str, run: str, items: int) -> dict[str, tuple[int, int, int]]:
    """A run's prompts once its `items` items are written: attempts, successes and last step."""
    deadline = time.monotonic() + 30
    while True:
        try:
            summary = json.loads(urllib.request.urlopen(f"{url}/v1/runs/{run}", timeout=10).read())
        except urllib.error.HTTPError as error:
            summary = {"status": error.code}
        if summary.get("items") == items:
            break
        assert time.monotonic() < deadline, f"run {run} did not reach {items} items: {summary}"
        time.sleep(0.05)
    answer = json.loads(urllib.request.urlopen(f"{url}/v1/runs/{run}/prompts", timeout=10).read())
    return {p["prompt_id"]: (p["attempts"], p["successes"], p["last_step"]) for p in answer["prompts"]}


def digest(prompt: str) -> str:
    """The TRL reward functions' id of a prompt without one, which the server uses too."""
    return hashlib.sha256(prompt.encode()).hexdigest()[:16]


def test_openrlhf_rollouts_are_recorded_in_a_run(adapter_env: str, monkeypatch) -> None:
    queries = [p + r for p, r in zip(PROMPTS, RESPONSES, strict=True)]
    run = f"openrlhf-{uuid.uuid4().hex[:8]}"
    # The URL OpenRLHF is given names the run and the step; the second prompt's rollout is wrong.
    url = f"{adapter_env}/get_reward?run={run}&step=4"
    for _ in range(2):
        openrlhf_post(url, {"query": queries, "prompts": PROMPTS, "labels": LABELS})
    expected = {digest(p): (2, 2 * int(r), 4) for p, r in zip(PROMPTS, [1, 0, 1], strict=True)}
    assert recorded_prompts(adapter_env, run, 6) == expected
    # An empty run name is refused whole, with the API's JSON error.
    with pytest.raises(urllib.error.HTTPError) as refused:
        openrlhf_post(f"{adapter_env}/get_reward?run=&step=4", {"query": queries, "prompts": PROMPTS, "labels": LABELS})
    assert refused.value.code == 422
    assert json.loads(refused.value.read())["code"] == "invalid_body"

    # The reward_func file records REFEREE_RUN at step 0.
    module = load_by_path(PACKAGE / "openrlhf.py", "reward_func")
    monkeypatch.setenv("REFEREE_RUN", run + "-file")
    module.reward_func(queries[:1], PROMPTS[:1], LABELS[:1])
    assert recorded_prompts(adapter_env, run + "-file", 1) == {digest(PROMPTS[0]): (1, 1, 0)}


# verl ----------------------------------------------------------------------------------------


def test_verl_compute_score(adapter_env: str) -> None:
    module = load_by_path(PACKAGE / "verl.py", "custom_module")
    compute_score = module.compute_score
    # verl's reward manager calls it per response, by keyword, and keeps the dict's other keys.
    rows = [
        ("openai/gsm8k", "Natalia sold 48+24 = 72 clips. #### 72", "72", {"index": 0}),
        ("openai/gsm8k", "She sold \\boxed{70} clips.", "72", {"index": 1}),
        ("math_dapo", "Answer: $\\frac{\\sqrt{2}}{2}$", "\\frac{1}{\\sqrt{2}}", {"index": 2}),
        ("aime_2024", "\\boxed{116}", "116", None),
        ("Idavidrein/gpqa", "The answer is (C).", "C", {}),
        ("my_quiz", "Paris", "Paris", {"verifier": "exact-match"}),
    ]
    reward_tensor: list[float] = []
    reward_extra_info: dict[str, list] = defaultdict(list)
    for data_source, solution_str, ground_truth, extra_info in rows:
        score = compute_score(
            data_source=data_source, solution_str=solution_str, ground_truth=ground_truth, extra_info=extra_info
        )
        assert isinstance(score, dict)
        reward_tensor.append(score["score"])
        for key, value in score.items():
            reward_extra_info[key].append(value)
    assert reward_tensor == [1.0, 0.0, 1.0, 1.0, 1.0, 1.0]
    assert reward_extra_info["acc"] == [True, False, True, True, True, True]


def test_verl_async_and_batch(adapter_env: str) -> None:
    module = load_by_path(PACKAGE / "verl.py", "custom_module")

    async def run() -> list[dict]:
        return await asyncio.gather(
            module.compute_score_async(data_source="openai/gsm8k", solution_str="#### 8", ground_truth="8"),
            module.compute_score_async(data_source="openai/gsm8k", solution_str="#### 9", ground_truth="8"),
        )

    assert asyncio.run(run()) == [
        {"score": 1.0, "acc": True, "judged": 1},
        {"score": 0.0, "acc": False, "judged": 1},
    ]

    before = requests_served(adapter_env, "/v1/score")
    # DAPO: 2 prompts x 3 samples; groups whose accuracy does not vary are filtered out.
    uids = ["a", "a", "a", "b", "b", "b"]
    results = module.compute_score_batch(
        data_sources=["math_dapo"] * 6,
        solution_strs=["\\boxed{3}", "\\boxed{3}", "\\boxed{4}", "\\boxed{7}", "\\boxed{7}", "\\boxed{7}"],
        ground_truths=["3", "3", "3", "7", "7", "7"],
        extra_infos=[{"uid": u} for u in uids],
    )
    assert requests_served(adapter_env, "/v1/score") == before + 1
    groups: dict[str, list[float]] = defaultdict(list)
    for uid, result in zip(uids, results, strict=True):
        groups[uid].append(float(result["acc"]))
    kept = [uid for uid, accs in groups.items() if statistics.pstdev(accs) > 0]
    assert kept == ["a"]


def test_verl_routes(adapter_env: str, monkeypatch) -> None:
    from referee_client.verl import verifier_for

    assert verifier_for("openai/gsm8k") == "math"
    assert verifier_for("numina_olympiads") == "math"
    assert verifier_for("cais/mmlu") == "multiple-choice"
    assert verifier_for("anything", {"verifier": "exact-match"}) == "exact-match"
    monkeypatch.setenv("REFEREE_VERL_ROUTES", json.dumps({"quiz/*": "exact-match"}))
    monkeypatch.setenv("REFEREE_VERL_DEFAULT", "multiple-choice")
    assert verifier_for("quiz/capitals") == "exact-match"
    assert verifier_for("unknown") == "multiple-choice"


# TRL -----------------------------------------------------------------------------------------


def grpo_step(reward_func, inputs: list[dict], completions: list) -> list:
    """What `GRPOTrainer._calculate_rewards` does with a custom reward function."""
    prompts = [x["prompt"] for x in inputs]
    keys = [key for key in inputs[0] if key not in ["prompt", "completion", "completion_ids"]]
    reward_kwargs = {key: [example[key] for example in inputs] for key in keys}
    completion_ids = [[0] * 4 for _ in completions]
    return reward_func(
        prompts=prompts, completions=completions, completion_ids=completion_ids, trainer_state=None, **reward_kwargs
    )


def test_trl_reward_function(adapter_env: str) -> None:
    from referee_client.trl import reward_function

    reward = reward_function("math", reference_column="solution", base_url=adapter_env)
    assert reward.__name__ == "referee_math"
    inputs = [
        {"prompt": "What is 6*7?", "solution": "42"},
        {"prompt": "What is 6*7?", "solution": "42"},
        {"prompt": "Simplify 2/4.", "solution": "\\frac{1}{2}"},
        {"prompt": "Broken item", "solution": "\\frac{"},
    ]
    before = requests_served(adapter_env, "/v1/verifiers/{id}/score")
    rewards = grpo_step(reward, inputs, ["\\boxed{42}", "maybe 41", "0.5", "1"])
    assert requests_served(adapter_env, "/v1/verifiers/{id}/score") == before + 1, "one request per step"
    assert rewards == [1.0, 0.0, 1.0, None]

    # Conversational datasets: completions are message lists.
    conversational = [
        {"prompt": [{"role": "user", "content": "Capital of France?"}], "answer": "Paris"},
        {"prompt": [{"role": "user", "content": "Capital of Italy?"}], "answer": "Rome"},
    ]
    completions = [[{"role": "assistant", "content": "Paris"}], [{"role": "assistant", "content": "Milan"}]]
    exact = reward_function("exact-match", reference_column="answer", base_url=adapter_env)
    assert grpo_step(exact, conversational, completions) == [1.0, 0.0]


def test_openrlhf_reward_func_sends_the_api_key(monkeypatch) -> None:
    import urllib.error

    import pytest
    from referee_client import _env

    from .conftest import Server

    key = "a-test-key-of-more-than-16-chars"
    server = Server({"REFEREE__AUTH__API_KEYS": json.dumps([key])})
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            openrlhf_post(server.url + "/get_reward", {"query": ["x"], "prompts": [""], "labels": ["x"]})
        assert refused.value.code == 401
        monkeypatch.setenv("REFEREE_URL", server.url)
        monkeypatch.setenv("REFEREE_API_KEY", key)
        monkeypatch.setenv("REFEREE_OPENRLHF_VERIFIER", "exact-match")
        monkeypatch.setattr(_env, "_shared", None)
        module = load_by_path(PACKAGE / "openrlhf.py", "reward_func")
        out = module.reward_func(["Q: Paris", "Q: Rome"], ["Q: ", "Q: "], ["Paris", "Paris"])
        assert list(out["rewards"]) == [1.0, 0.0]
    finally:
        if _env._shared is not None:
            _env._shared.close()
        monkeypatch.setattr(_env, "_shared", None)
        server.stop()
