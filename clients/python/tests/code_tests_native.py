"""A native reference of the `code-tests` verifier for Python suites in the `asserts` format:
the suite is the last fenced block of the response, split with Python's `ast` into setup
statements and tests; every (solution, test) pair runs as one `python3` program; the suite is
valid when every correct solution passes every test, and a wrong solution is detected when it
fails at least one test.

Splitting. A top-level statement is a test when it is not a `def`, `async def`, `class` or
import and either contains an `assert` anywhere inside it, or is an expression statement that
calls, by name, a function defined by a top-level `def` of the suite whose body holds an
`assert` (HumanEval's `check(candidate)` called as `check(has_close_elements)`). Every other
top-level statement is setup. Test k runs after the solution, in the solution's namespace,
preceded by the setup statements that come before it in the file, in order.

Running. The solution runs with `__name__ == "solution"` (so its `if __name__ == "__main__":`
block does not run); a test passes when the program exits with status 0 after printing a marker
line it prints only once the test has run, so `sys.exit(0)` in the solution or the test fails.
"""

from __future__ import annotations

import ast
import os
import secrets
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

IMPORTS = (ast.Import, ast.ImportFrom)
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def extract_suite(response: str) -> str | None:
    """The last fenced block of the response: it opens at a line that starts with ``` (after
    leading whitespace), optionally followed by a language tag, and ends at the next line that is
    exactly ``` once stripped. None when the response holds no closed block."""
    last = None
    block: list[str] | None = None
    for line in response.splitlines():
        stripped = line.strip()
        if block is None:
            if stripped.startswith("```"):
                block = []
        elif stripped == "```":
            last = "\n".join(block)
            block = None
        else:
            block.append(line)
    return last


def _segment(source: str, node: ast.stmt) -> str:
    """The statement's source text, its decorators included (`ast.get_source_segment` starts a
    decorated definition at `def`)."""
    decorators = getattr(node, "decorator_list", None)
    if decorators:
        # A top-level decorator starts its line.
        node = SimpleNamespace(  # type: ignore[assignment]
            lineno=decorators[0].lineno,
            col_offset=0,
            end_lineno=node.end_lineno,
            end_col_offset=node.end_col_offset,
        )
    text = ast.get_source_segment(source, node)
    assert text is not None
    return text


def _has_assert(node: ast.AST) -> bool:
    return any(isinstance(inner, ast.Assert) for inner in ast.walk(node))


def split_suite(source: str) -> list[tuple[str, str, int]]:
    """The suite's tests, in file order, as (setup source, test source, line of the test).
    Raises SyntaxError (or ValueError) when the suite does not parse."""
    module = ast.parse(source)
    checkers = {
        statement.name
        for statement in module.body
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(_has_assert(inner) for inner in statement.body)
    }
    setup: list[str] = []
    tests = []
    for statement in module.body:
        text = _segment(source, statement)
        is_test = not isinstance(statement, DEFINITIONS + IMPORTS) and (
            _has_assert(statement)
            or (
                isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Call)
                and isinstance(statement.value.func, ast.Name)
                and statement.value.func.id in checkers
            )
        )
        if is_test:
            tests.append(("\n".join(setup), text, statement.lineno))
        else:
            setup.append(text)
    return tests


def _driver(solution: str, program: str, marker: str) -> str:
    return "\n".join(
        [
            "import sys",
            f"solution = {solution!r}",
            f"program = {program!r}",
            'namespace = {"__name__": "solution"}',
            'exec(compile(solution, "solution.py", "exec"), namespace)',
            'exec(compile(program, "tests.py", "exec"), namespace)',
            "try:",
            "    sys.stdout.flush()",
            "except Exception:",
            "    pass",
            f'sys.__stdout__.write("\\n" + {marker!r} + "\\n")',
            "sys.__stdout__.flush()",
            "",
        ]
    )


def run_program(
    solution: str, setup: str, test: str, timeout: float = 10
) -> tuple[bool, bool]:
    """Runs one (solution, test) pair; (passed, timed out)."""
    marker = "code-tests-done-" + secrets.token_hex(16)
    program = setup + "\n" + test if setup else test
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "driver.py")
        with open(path, "w", encoding="utf-8") as file:
            file.write(_driver(solution, program, marker))
        try:
            done = subprocess.run(
                [sys.executable, path],
                check=False,
                cwd=directory,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return False, True
    printed = done.stdout.decode("utf-8", "replace").splitlines()
    return done.returncode == 0 and marker in printed, False


_outcomes: dict[tuple[str, str, str], bool] = {}
_outcomes_lock = threading.Lock()


def run_pair(solution: str, setup: str, test: str, timeout: float = 10) -> bool:
    """Whether the solution passes the test (with its setup). The same pair runs once per
    process: later calls return the first outcome."""
    key = (solution, setup, test)
    with _outcomes_lock:
        if key in _outcomes:
            return _outcomes[key]
    passed, _ = run_program(solution, setup, test, timeout)
    with _outcomes_lock:
        _outcomes[key] = passed
    return passed


def score_suite(
    response: str,
    correct: list[str],
    wrong: list[str],
    reward: str = "detection_rate",
    timeout: float = 10,
) -> dict:
    """The verifier's result for a suite: `valid` (every correct solution passes every test),
    `detected` (wrong solutions that fail at least one test, counted on every suite, valid or
    not), `wrong`, `detection_rate` (None without wrong solutions) and `score`: 0 for an invalid
    suite, else the detection rate (`reward="detection_rate"`, 1 without wrong solutions) or 1
    when every wrong solution is detected (`reward="verifier_accuracy"`)."""
    if reward not in ("detection_rate", "verifier_accuracy"):
        raise ValueError(f"unknown reward {reward!r}")
    source = extract_suite(response)
    tests = None
    if source is not None:
        try:
            tests = split_suite(source)
        except (SyntaxError, ValueError):
            tests = None
    if not tests:
        return {
            "status": "unparseable",
            "valid": False,
            "detected": 0,
            "wrong": len(wrong),
            "detection_rate": None,
            "score": 0.0,
        }
    solutions = list(correct) + list(wrong)
    pairs = [(s, setup, test) for s in solutions for setup, test, _ in tests]
    with ThreadPoolExecutor(max_workers=2) as pool:
        passed = list(pool.map(lambda pair: run_pair(*pair, timeout=timeout), pairs))
    per_solution = [
        passed[i * len(tests) : (i + 1) * len(tests)] for i in range(len(solutions))
    ]
    valid = all(all(row) for row in per_solution[: len(correct)])
    detected = sum(not all(row) for row in per_solution[len(correct) :])
    rate = detected / len(wrong) if wrong else None
    if not valid:
        score = 0.0
    elif reward == "verifier_accuracy" or rate is None:
        score = 1.0 if detected == len(wrong) else 0.0
    else:
        score = rate
    status = "correct" if score == 1 else "incorrect" if score == 0 else "partial"
    return {
        "status": status,
        "valid": valid,
        "detected": detected,
        "wrong": len(wrong),
        "detection_rate": rate,
        "score": score,
    }
