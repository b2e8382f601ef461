"""Scores the same 10k math items through Referee's Python client (sync and async) and through
plain HTTP: httpx with the same chunks and `json` on the replies, from the same number of
threads (`raw`) or as that many concurrent asyncio requests (`raw_async`). All four run in turn,
round after round, in the same process; it prints items/s of each and the clients' ratios to the
plain requests of the same kind.

    python bench/clients/python_client.py URL [--items 10000] [--rounds 5] [--chunk 1000] [--concurrency 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from referee_client import AsyncReferee, Referee


def math_items(n: int) -> list[dict]:
    """Varied math items, about one in five wrong, the same on every run."""
    items = []
    for i in range(n):
        a, b = i % 97 + 1, i % 13 + 2
        kind = i % 5
        if kind == 0:
            response, reference = f"so the answer is \\boxed{{{a * b}}}", str(a * b)
        elif kind == 1:
            response, reference = f"Thus $\\frac{{{a}}}{{{b}}}$.", f"\\frac{{{2 * a}}}{{{2 * b}}}"
        elif kind == 2:
            response, reference = f"The result is {a / b:.6f}", f"\\frac{{{a}}}{{{b}}}"
        elif kind == 3:
            response, reference = f"\\boxed{{x^2 + {a}x}}", f"x(x + {a})"
        else:
            response, reference = f"\\boxed{{{a + 1}}}", str(a)
        items.append({"id": str(i), "verifier": "math", "input": {"response": response, "reference": reference}})
    return items


def raw(url: str, items: list[dict], chunk: int, concurrency: int) -> list[dict]:
    chunks = [items[i : i + chunk] for i in range(0, len(items), chunk)]
    with httpx.Client(base_url=url, timeout=60) as http, ThreadPoolExecutor(concurrency) as pool:

        def post(part: list[dict]) -> list[dict]:
            response = http.post("/v1/score", json={"items": part})
            response.raise_for_status()
            return json.loads(response.content)["results"]

        return [r for part in pool.map(post, chunks) for r in part]


def raw_async(url: str, items: list[dict], chunk: int, concurrency: int) -> list[dict]:
    async def run() -> list[dict]:
        chunks = [items[i : i + chunk] for i in range(0, len(items), chunk)]
        slots = asyncio.Semaphore(concurrency)
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:

            async def post(part: list[dict]) -> list[dict]:
                async with slots:
                    response = await http.post("/v1/score", json={"items": part})
                response.raise_for_status()
                return json.loads(response.content)["results"]

            parts = await asyncio.gather(*(post(part) for part in chunks))
        return [r for part in parts for r in part]

    return asyncio.run(run())


def client(url: str, items: list[dict], chunk: int, concurrency: int) -> list[dict]:
    with Referee(url, chunk_size=chunk, concurrency=concurrency) as referee:
        return referee.score(items)


def async_client(url: str, items: list[dict], chunk: int, concurrency: int) -> list[dict]:
    async def run() -> list[dict]:
        async with AsyncReferee(url, chunk_size=chunk, concurrency=concurrency) as referee:
            return await referee.score(items)

    return asyncio.run(run())


RUNS = {"raw": raw, "client": client, "raw_async": raw_async, "async_client": async_client}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chunk", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    items = math_items(args.items)
    expected = [r["status"] for r in raw(args.url, items, args.chunk, args.concurrency)]
    assert expected.count("correct") > args.items // 2, "the items should mostly be right"
    rates: dict[str, list[float]] = {name: [] for name in RUNS}
    for _ in range(args.rounds):
        for name, run in RUNS.items():
            started = time.perf_counter()
            results = run(args.url, items, args.chunk, args.concurrency)
            elapsed = time.perf_counter() - started
            assert [r["status"] for r in results] == expected, f"{name}: different verdicts"
            assert [r["id"] for r in results] == [it["id"] for it in items], f"{name}: order"
            rates[name].append(args.items / elapsed)
    medians = {name: statistics.median(values) for name, values in rates.items()}
    report = {
        "items": args.items,
        "rounds": args.rounds,
        "chunk": args.chunk,
        "concurrency": args.concurrency,
        "correct": expected.count("correct"),
        **{f"{name}_items_per_s": [round(r) for r in values] for name, values in rates.items()},
        **{f"{name}_median": round(rate) for name, rate in medians.items()},
        "client_over_raw": round(medians["client"] / medians["raw"], 3),
        "async_client_over_raw_async": round(medians["async_client"] / medians["raw_async"], 3),
        # Each round's ratio, then their median: steadier when the machine's load drifts.
        "client_over_raw_paired": round(statistics.median(c / r for c, r in zip(rates["client"], rates["raw"])), 3),
        "async_client_over_raw_async_paired": round(
            statistics.median(a / r for a, r in zip(rates["async_client"], rates["raw_async"])), 3
        ),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
