"""`grounding` against LongRLVR's own reward code: the same responses scored by LongRLVR's
reward function in this process and by Referee over HTTP give the same reward, precision, recall
and F-score, on generated responses with right, partial, repeated, outside and missing
citations, right and wrong answers, and malformed blocks."""

from __future__ import annotations

import json
import random
import urllib.request

from .peers.longrlvr import custom_compute_score, whitespace_judge

ANSWERS = [
    "Normandy is in France.",
    "The treaty was signed in 1648.",
    "42",
    "Marie Curie",
]


def response(rng: random.Random, gold: list[int], context: int, truth: str) -> str:
    """A response as a LongRLVR policy writes it, with the ways policies go wrong mixed in."""
    kind = rng.random()
    cited = []
    if kind < 0.25:
        cited = list(gold)
    elif kind < 0.5:
        cited = rng.sample(range(context), rng.randint(1, 6))
    elif kind < 0.65:
        cited = [rng.choice(gold)] * rng.randint(2, 5)
    elif kind < 0.75:
        cited = list(gold) + [context + rng.randint(0, 1000)]
    elif kind < 0.8:
        cited = list(range(context))
    rng.shuffle(cited)
    separator = rng.choice([" ", ", ", "\n", ""])
    ids = separator.join(f"<CHUNK_{i}>" for i in cited)
    if rng.random() < 0.1:
        ids += " <CHUNK 3> <chunk_4> [5]"  # spellings LongRLVR does not read
    answer = truth if rng.random() < 0.6 else rng.choice(ANSWERS)
    if rng.random() < 0.3:
        answer = "  " + answer.replace(" ", "  \n") + " "
    blocks = [
        f"<useful_chunks>\n{ids}\n</useful_chunks>",
        f"<answer>\n{answer}\n</answer>",
    ]
    shape = rng.random()
    if shape < 0.06:
        blocks.pop(0)  # no citation block
    elif shape < 0.12:
        blocks.pop()  # no answer block
    elif shape < 0.16:
        blocks.append(f"<answer>{answer}</answer>")  # two answers
    elif shape < 0.2:
        blocks.insert(0, "<useful_chunks></useful_chunks>")  # two citation blocks
    elif shape < 0.3:
        blocks.reverse()
    return "Based on the documents:\n" + "\n".join(blocks)


def score(url: str, items: list[dict]) -> list[dict]:
    body = json.dumps({"items": items}).encode()
    request = urllib.request.Request(
        url + "/v1/score", body, {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as reply:
        return json.load(reply)["results"]


def test_rewards_equal_longrlvrs_own(server_url: str) -> None:
    rng = random.Random(20261128)
    cases = []
    for _ in range(600):
        context = rng.randint(8, 120)
        gold = sorted(rng.sample(range(context), rng.randint(1, min(6, context))))
        truth = rng.choice(ANSWERS)
        cases.append((response(rng, gold, context, truth), gold, context, truth))
    items = [
        {
            "verifier": "grounding",
            "input": {
                "response": text,
                "gold_chunks": gold,
                "answer": {"verifier": "exact-match", "input": {"reference": truth}},
            },
        }
        for text, gold, _, truth in cases
    ]
    results = score(server_url, items)
    kinds = set()
    for (text, gold, _, truth), result in zip(cases, results, strict=True):
        theirs = custom_compute_score(
            text, truth, {"ref_chunks": gold}, whitespace_judge
        )
        ours = result["details"]
        assert abs(result["score"] - theirs["score"]) < 1e-9, (
            text,
            gold,
            theirs,
            result,
        )
        if result["status"] == "unparseable":
            assert theirs == {
                "score": 0.0,
                "recall": 0.0,
                "precision": 0.0,
                "fbeta_score": 0.0,
                "answer_acc": 0.0,
            }
            kinds.add("unparseable")
            continue
        assert abs(ours["precision"] - theirs["precision"]) < 1e-9, (text, theirs, ours)
        assert abs(ours["recall"] - theirs["recall"]) < 1e-9, (text, theirs, ours)
        assert abs(ours["context_reward"] - theirs["fbeta_score"]) < 1e-9, (
            text,
            theirs,
            ours,
        )
        assert ours["answer_reward"] == theirs["answer_acc"], (text, theirs, ours)
        kinds.add(
            (
                theirs["answer_acc"],
                theirs["fbeta_score"] == 1.0,
                0 < theirs["fbeta_score"] < 1,
            )
        )
    # The generated responses cover every branch of the reward.
    assert "unparseable" in kinds and len(kinds) >= 5, kinds
