"""Each built-in verl data-source route against the scorer verl itself uses for that source
(`verl/utils/reward_score/__init__.py` `default_compute_score`, copied under `verl_scorers/`), on a
sample of cases: Referee credits every answer verl credits, and where the two differ it is
because Referee reads an equivalent answer that verl's rule misses (docs/integrations.md, verl)."""

from __future__ import annotations

import pytest

from .test_adapters import PACKAGE, load_by_path
from .verl_scorers import gsm8k, math_dapo, math_reward


def verl_gsm8k(response: str, truth: str) -> bool:
    return gsm8k.compute_score(response, truth) == 1.0


def verl_math(response: str, truth: str) -> bool:
    return math_reward.compute_score(response, truth) == 1.0


def verl_dapo(response: str, truth: str) -> bool:
    return bool(math_dapo.compute_score(response, truth)["acc"])


#: (data source, verl's scorer, response, ground truth, verl credits it, Referee credits it)
CASES = [
    ("openai/gsm8k", verl_gsm8k, "Natalia sold 48/2 = 24 clips in May.\nSo 48+24 = 72.\n#### 72", "72", True, True),
    ("openai/gsm8k", verl_gsm8k, "48+22 = 70\n#### 70", "72", False, False),
    ("openai/gsm8k", verl_gsm8k, "The total is 1,000 dollars.\n#### 1,000", "1000", True, True),
    ("openai/gsm8k", verl_gsm8k, "#### -3", "-3", True, True),
    ("openai/gsm8k", verl_gsm8k, "#### 72\n#### 71", "71", True, True),
    ("openai/gsm8k", verl_gsm8k, "The answer is 18.\n#### 18", "18", True, True),
    ("openai/gsm8k", verl_gsm8k, "#### 7", "72", False, False),
    # verl compares the text after `####`: an equal value written otherwise is missed there.
    ("openai/gsm8k", verl_gsm8k, "#### 72.0", "72", False, True),
    ("openai/gsm8k", verl_gsm8k, "#### $72", "72", False, True),
    # verl requires the `####` marker; Referee's math verifier reads the answer wherever it is.
    ("openai/gsm8k", verl_gsm8k, "\\boxed{72}", "72", False, True),
    ("openai/gsm8k", verl_gsm8k, "So she has 72 clips in all.", "72", False, True),
    ("HuggingFaceH4/MATH-500", verl_math, "\\boxed{\\frac{1}{2}}", "\\frac{1}{2}", True, True),
    ("HuggingFaceH4/MATH-500", verl_math, "\\boxed{\\frac12}", "\\frac{1}{2}", True, True),
    ("HuggingFaceH4/MATH-500", verl_math, "\\boxed{0.5}", "\\frac{1}{2}", True, True),
    ("HuggingFaceH4/MATH-500", verl_math, "so $x=\\boxed{5}$", "5", True, True),
    ("HuggingFaceH4/MATH-500", verl_math, "\\boxed{\\dfrac{3}{4}}", "\\frac{3}{4}", True, True),
    ("HuggingFaceH4/MATH-500", verl_math, "\\boxed{2\\sqrt{3}}", "2\\sqrt3", True, True),
    ("HuggingFaceH4/MATH-500", verl_math, "\\boxed{(1,2)}", "(1, 2)", True, True),
    ("HuggingFaceH4/MATH-500", verl_math, "\\boxed{3}", "4", False, False),
    # verl compares normalised strings: the same polynomial written in another order is missed.
    ("HuggingFaceH4/MATH-500", verl_math, "\\boxed{x^2+1}", "1+x^2", False, True),
    ("lighteval/MATH", verl_math, "the answer is 4", "4", False, True),
    ("math_dapo", verl_dapo, "Answer: 3", "3", True, True),
    ("math_dapo", verl_dapo, "Answer: 4", "3", False, False),
    ("math_dapo", verl_dapo, "Answer: $\\frac{\\sqrt{2}}{2}$", "\\frac{\\sqrt{2}}{2}", True, True),
    ("math_dapo", verl_dapo, "Answer: 1,000", "1000", True, True),
    ("math_dapo", verl_dapo, "Answer: 5 dollars", "5", True, True),
    ("math_dapo", verl_dapo, "Answer: x = 7", "7", True, True),
    ("math_dapo", verl_dapo, "... \\boxed{2}", "3", False, False),
    ("math_dapo", verl_dapo, "no answer here", "3", False, False),
    ("math_dapo", verl_dapo, "Answer: \\frac{1}{2}", "0.5", False, True),
    ("aime_2024", verl_dapo, "\\boxed{116}", "116", True, True),
    ("aime_2025", verl_dapo, "\\boxed{115}", "116", False, False),
]


def test_verl_scorers_say_what_the_table_says() -> None:
    for source, scorer, response, truth, verl_credits, _ in CASES:
        assert scorer(response, truth) is verl_credits, (source, response, truth)


def test_routes_credit_what_verl_credits(adapter_env: str) -> None:
    module = load_by_path(PACKAGE / "verl.py", "custom_module")
    results = module.compute_score_batch(
        data_sources=[c[0] for c in CASES],
        solution_strs=[c[2] for c in CASES],
        ground_truths=[c[3] for c in CASES],
    )
    for case, result in zip(CASES, results, strict=True):
        source, _, response, truth, verl_credits, referee_credits = case
        assert result["acc"] is referee_credits, (source, response, truth, result)
        assert result["judged"] == 1
        if verl_credits:
            assert result["score"] == 1.0, "a reward verl gives must not be lost on the way to Referee"


@pytest.mark.parametrize(
    ("source", "verifier"),
    [
        ("openai/gsm8k", "math"),
        ("lighteval/MATH", "math"),
        ("DigitalLearningGmbH/MATH-lighteval", "math"),
        ("HuggingFaceH4/MATH-500", "math"),
        ("math_dapo", "math"),
        ("math", "math"),
        ("math_dapo_reasoning", "math"),
        ("aime_2024", "math"),
        ("numina_olympiads", "math"),
        ("hiyouga/geometry3k", "math"),
        ("Idavidrein/gpqa", "multiple-choice"),
        ("cais/mmlu", "multiple-choice"),
        ("codecontests", "code"),
        ("apps", "code"),
        ("codeforces", "code"),
        ("taco", "code"),
    ],
)
def test_builtin_routes(source: str, verifier: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee_client.verl import verifier_for

    monkeypatch.delenv("REFEREE_VERL_ROUTES", raising=False)
    monkeypatch.setenv("REFEREE_VERL_DEFAULT", "exact-match")
    assert verifier_for(source) == verifier


def test_malformed_routes_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee_client.verl import verifier_for

    monkeypatch.setenv("REFEREE_VERL_ROUTES", "{not json")
    with pytest.raises(ValueError, match="REFEREE_VERL_ROUTES"):
        verifier_for("quiz")
    monkeypatch.setenv("REFEREE_VERL_ROUTES", '["math"]')
    with pytest.raises(ValueError, match="REFEREE_VERL_ROUTES"):
        verifier_for("quiz")


DOUBLE = "Reading n, printing 2n:\n```python\nprint(int(input()) * 2)\n```"


def test_code_sources(adapter_env: str) -> None:
    import json

    module = load_by_path(PACKAGE / "verl.py", "custom_module")
    cases = [
        # (data source, response, ground truth, score, judged)
        ("codecontests", DOUBLE, json.dumps({"inputs": ["3\n", "5\n"], "outputs": ["6\n", "10\n"]}), 1.0, 1),
        ("apps", DOUBLE, {"inputs": ["3\n", "5\n"], "outputs": ["6\n", "11\n"]}, 0.5, 1),
        ("taco", "```python\nprint(7)\n```", {"inputs": ["1\n"], "outputs": ["6\n"]}, 0.0, 1),
        # Call-based cases are not converted: the verifier refuses them, visibly.
        ("codeforces", DOUBLE, {"fn_name": "f", "inputs": [[1]], "outputs": [[2]]}, 0.0, 0),
        ("apps", DOUBLE, "not test cases", 0.0, 0),
    ]
    results = module.compute_score_batch(
        data_sources=[c[0] for c in cases], solution_strs=[c[1] for c in cases], ground_truths=[c[2] for c in cases]
    )
    assert [r["score"] for r in results] == [c[3] for c in cases]
    assert [r["judged"] for r in results] == [c[4] for c in cases]
    assert [r["acc"] for r in results] == [True, False, False, False, False]


def test_code_input_conversion() -> None:
    from referee_client.verl import code_input

    assert code_input({"inputs": ["1"], "outputs": ["2"]}) == {
        "language": "python",
        "tests": [{"stdin": "1", "expected_stdout": "2"}],
        "options": {"scoring": "fraction"},
    }
    assert code_input('{"inputs": ["1"], "outputs": ["2"]}') == code_input({"inputs": ["1"], "outputs": ["2"]})
    for bad in (
        {"inputs": ["1"], "outputs": []},
        {"inputs": [], "outputs": []},
        {"inputs": [1], "outputs": [2]},
        "{",
        3,
    ):
        assert code_input(bad) is None
