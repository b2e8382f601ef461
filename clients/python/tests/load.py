"""The load the trainer tests run their calling code under: many concurrent rollouts of small
but CPU-heavy Python `code` items, more than a default server admits at once (its code queue
holds 64 items per core), so the server pushes back and the adapters must wait, not fail."""

from __future__ import annotations

from typing import Any

#: Rollouts per load test.
ROLLOUTS = 600

PROGRAM = """```python
n = int(input())
s = 0
for i in range(20000):
    s = (s + i * n) % 7
print(n * 2)
```"""


def ground_truth(i: int) -> dict[str, Any]:
    """The tests of rollout `i`: every third one expects a wrong output, so a reward that lands
    on the wrong rollout is seen."""
    expected = (lambda n: n * 2) if i % 3 else (lambda n: n * 2 + 1)
    tests = [{"stdin": str(n), "expected_stdout": str(expected(n))} for n in (i, i + 1)]
    return {"language": "python", "tests": tests}


def expected_score(i: int) -> float:
    return 0.0 if i % 3 == 0 else 1.0
