"""OpenEnv reset + step round trips with `openenv-core`'s own `GenericEnvClient`, for
`bench/episodes/run.sh`.

    openenv_rtt.py BASE_URL ACTION_JSON ROUNDS [RESET_JSON]

Opens one WebSocket session at BASE_URL and times ROUNDS rounds of `reset` then `step(ACTION)`
(after 20 untimed ones). Prints one JSON line: the median and 95th percentile of a round and
rounds per second.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import warnings

warnings.filterwarnings("ignore")

from openenv.core import GenericEnvClient


def main() -> None:
    base, action, rounds = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
    reset = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    with GenericEnvClient(base_url=base).sync() as env:
        for _ in range(20):
            env.reset(**reset)
            env.step(action)
        times = []
        began = time.perf_counter()
        for _ in range(rounds):
            start = time.perf_counter()
            env.reset(**reset)
            env.step(action)
            times.append((time.perf_counter() - start) * 1e3)
        seconds = time.perf_counter() - began
    times.sort()
    print(
        json.dumps(
            {
                "rounds": rounds,
                "round_ms": {
                    "p50": statistics.median(times),
                    "p95": times[round((len(times) - 1) * 0.95)],
                },
                "rounds_per_second": rounds / seconds,
            }
        )
    )


if __name__ == "__main__":
    main()
