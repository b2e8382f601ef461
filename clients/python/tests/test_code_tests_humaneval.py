"""`code-tests` on HumanEval: test suites written as top-level asserts, scored by Referee over
HTTP against each problem's canonical solution and its mutants, give the validity, detected
count and reward of the native reference (code_tests_native.py) run on the same programs; a
suite with an assert the canonical solution fails is invalid and scores 0; HumanEval's full
check detects more mutants than its first assert alone. The broken suites ask for the full
matrix, so that their detected counts are compared too.

The data (data/code_tests_humaneval.jsonl) comes from bench/code_tests/make_mutants.py."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from .code_tests_native import score_suite

DATA = Path(__file__).parent / "data" / "code_tests_humaneval.jsonl"
SUITES = ("strong", "weak", "broken")


def score(url: str, items: list[dict]) -> list[dict]:
    body = json.dumps({"items": items}).encode()
    request = urllib.request.Request(
        url + "/v1/score", body, {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=300) as reply:
        return json.load(reply)["results"]


def item(problem: dict, suite: str, reward: str | None = None) -> dict:
    data = {
        "language": "python",
        "format": "asserts",
        "response": problem["suites"][suite],
        "correct_solutions": [problem["canonical"]],
        "wrong_solutions": problem["mutants"],
    }
    if reward is not None:
        data["reward"] = reward
    if suite == "broken":
        # An invalid suite's wrong solutions run only with the full matrix.
        data["full_matrix"] = True
    return {"verifier": "code-tests", "input": data}


def test_suites_score_as_the_native_reference(server_url: str) -> None:
    problems = [
        json.loads(line) for line in DATA.read_text().splitlines() if line.strip()
    ]
    assert len(problems) == 20
    cases = [(p, suite, None) for p in problems for suite in SUITES]
    cases += [(p, "strong", "verifier_accuracy") for p in problems]
    results = score(server_url, [item(p, suite, reward) for p, suite, reward in cases])
    assert len(results) == len(cases)

    ours: dict[tuple[str, str, str | None], dict] = {}
    natives: dict[tuple[str, str, str | None], dict] = {}
    for (problem, suite, reward), result in zip(cases, results, strict=True):
        native = score_suite(
            problem["suites"][suite],
            [problem["canonical"]],
            problem["mutants"],
            reward=reward or "detection_rate",
        )
        where = (problem["task_id"], suite, reward, native, result)
        details = result["details"]
        assert isinstance(result["status"], str), where
        assert result["status"] != "unparseable", where
        assert details["valid"] is native["valid"], where
        assert details["detected"] == native["detected"], where
        assert details["wrong"] == len(problem["mutants"]), where
        assert abs(details["detection_rate"] - native["detection_rate"]) < 1e-9, where
        assert abs(result["score"] - native["score"]) < 1e-9, where
        ours[problem["task_id"], suite, reward] = result
        natives[problem["task_id"], suite, reward] = native

    for problem in problems:
        task = problem["task_id"]
        strong = ours[task, "strong", None]
        broken = ours[task, "broken", None]
        accuracy = ours[task, "strong", "verifier_accuracy"]
        assert strong["details"]["valid"] is True, (task, strong)
        assert broken["details"]["valid"] is False, (task, broken)
        assert broken["score"] == 0.0, (task, broken)
        native = natives[task, "strong", None]
        every = native["detected"] == native["wrong"]
        assert accuracy["score"] == (1.0 if every else 0.0), (task, accuracy)

    def mean_rate(suite: str) -> float:
        rates = [
            ours[p["task_id"], suite, None]["details"]["detection_rate"]
            for p in problems
        ]
        return sum(rates) / len(rates)

    assert mean_rate("strong") > mean_rate("weak")
    higher = [
        p["task_id"]
        for p in problems
        if ours[p["task_id"], "strong", None]["score"]
        > ours[p["task_id"], "weak", None]["score"]
    ]
    assert len(higher) >= 10, higher
