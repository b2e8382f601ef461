"""Builds clients/python/tests/data/code_tests_humaneval.jsonl, the data of the `code-tests`
verifier's HumanEval test (clients/python/tests/test_code_tests_humaneval.py).

For each HumanEval problem (verifiers/code/tests/data/HumanEval.jsonl; HumanEval is MIT-licensed,
OpenAI, "Evaluating Large Language Models Trained on Code", 2021) it writes the canonical program
(prompt + canonical solution), up to 6 wrong programs made from it by one `ast` mutation each
(comparison, arithmetic and boolean operator swaps, integer constants off by one, `True`/`False`
swapped, a `not` removed, an `if`/`while` condition negated, an index or slice bound off by one,
an augmented assignment removed), and three test suites as model responses holding a ```python
block:

- `strong`: the asserts of HumanEval's `check(candidate)` as top-level asserts on the entry point,
  with the statements they need (imports, helpers) before them;
- `weak`: the strong suite's first test only, with the setup before it;
- `broken`: the strong suite plus one assert that the canonical solution fails.

Mutations touch only the canonical solution's lines, never the prompt. Mutants are drawn with a
fixed seed per problem; a mutant is kept when it compiles, differs from the canonical program and
from the mutants kept before it (in `ast.dump`), and finishes every strong test within a few
seconds (so that no test waits on a timeout). Equivalent mutants may stay: no suite detects them.
The problems kept are the first 20, in task order, whose checks are deterministic, whose strong
suite passes the canonical program and whose broken suite fails it, and that have at least 3
mutants. Everything runs natively with clients/python/tests/code_tests_native.py.

Rerun from the repository root (deterministic; a minute or two):

    python3 bench/code_tests/make_mutants.py
"""

from __future__ import annotations

import ast
import builtins
import copy
import json
import random
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients/python/tests"))
from code_tests_native import run_pair, run_program, split_suite

SOURCE = ROOT / "verifiers/code/tests/data/HumanEval.jsonl"
OUTPUT = ROOT / "clients/python/tests/data/code_tests_humaneval.jsonl"
SEED = 20260301
PROBLEMS = 20
MAX_MUTANTS = 6
MIN_MUTANTS = 3
SLOW = 3.0  # seconds: a mutant that takes longer on a strong test is dropped

COMPARE_SWAPS = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
ARITHMETIC_SWAPS = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
}


def literal(expression: ast.expr) -> bool:
    """A number written out (`3`, `-1`): the constant mutations already move it."""
    if isinstance(expression, ast.UnaryOp) and isinstance(
        expression.op, (ast.USub, ast.UAdd)
    ):
        expression = expression.operand
    return isinstance(expression, ast.Constant)


def off_by(expression: ast.expr, delta: int) -> ast.expr:
    op = ast.Add() if delta > 0 else ast.Sub()
    return ast.BinOp(
        left=copy.deepcopy(expression), op=op, right=ast.Constant(abs(delta))
    )


def replacements(node: ast.AST) -> list[tuple[str, ast.AST, ast.AST]]:
    """The one-step mutations at a node, as (operator, the node replaced, its replacement)."""
    found: list[tuple[str, ast.AST, ast.AST]] = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in COMPARE_SWAPS:
                new = copy.deepcopy(node)
                new.ops[i] = COMPARE_SWAPS[type(op)]()
                found.append(("compare", node, new))
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        if type(node.op) in ARITHMETIC_SWAPS:
            new = copy.deepcopy(node)
            new.op = ARITHMETIC_SWAPS[type(node.op)]()
            found.append(("arithmetic", node, new))
        if isinstance(node, ast.AugAssign):
            found.append(("drop-update", node, ast.Pass()))
    elif isinstance(node, ast.BoolOp):
        new = copy.deepcopy(node)
        new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        found.append(("boolean", node, new))
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        found.append(("true-false", node, ast.Constant(not node.value)))
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        found.append(("constant+1", node, ast.Constant(node.value + 1)))
        found.append(("constant-1", node, ast.Constant(node.value - 1)))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        found.append(("drop-not", node, copy.deepcopy(node.operand)))
    elif isinstance(node, ast.Subscript):
        index = node.slice
        if isinstance(index, ast.Slice):
            for bound in ("lower", "upper"):
                value = getattr(index, bound)
                if value is not None and not literal(value):
                    for delta in (1, -1):
                        new = copy.deepcopy(node)
                        setattr(new.slice, bound, off_by(value, delta))
                        found.append(("slice", node, new))
        elif not literal(index) and not isinstance(index, ast.Tuple):
            for delta in (1, -1):
                new = copy.deepcopy(node)
                new.slice = off_by(index, delta)
                found.append(("index", node, new))
    if isinstance(node, (ast.If, ast.While)):
        negated = ast.UnaryOp(ast.Not(), copy.deepcopy(node.test))
        found.append(("negate-condition", node.test, negated))
    return found


def replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list) and any(item is old for item in value):
                value[[id(item) for item in value].index(id(old))] = new
                return
    raise LookupError("node not found")


def splice(source: str, node: ast.AST, text: str) -> str:
    """The source with the node's span replaced (ast columns count UTF-8 bytes)."""
    data = source.encode()
    starts = [0]
    for line in source.encode().splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    begin = starts[node.lineno - 1] + node.col_offset
    end = starts[node.end_lineno - 1] + node.end_col_offset
    return (data[:begin] + text.encode() + data[end:]).decode()


def normal(source: str) -> str:
    return ast.dump(ast.parse(source))


def mutants(prompt: str, program: str) -> list[tuple[str, str]]:
    """Every one-step mutant of the program's solution lines, in source order, as (operator,
    program text); the text changes only the mutated node's span."""
    tree = ast.parse(program)
    first_line = prompt.count("\n") + 1
    inside_fstrings = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for inner in ast.walk(node)
    }
    nodes = list(ast.walk(tree))
    sites = []
    for index, node in enumerate(nodes):
        if getattr(node, "lineno", 0) < first_line or id(node) in inside_fstrings:
            continue
        for number, (operator, _, _) in enumerate(replacements(node)):
            sites.append(((node.lineno, node.col_offset, index, number), operator))
    sites.sort()
    canonical = normal(program)
    found = []
    for (_, _, index, number), operator in sites:
        intended = copy.deepcopy(tree)
        _, old, new = replacements(list(ast.walk(intended))[index])[number]
        replace(intended, old, new)
        wanted = normal(ast.unparse(intended))
        text = ast.unparse(new)
        for candidate in (text, f"({text})"):
            mutated = splice(program, old, candidate)
            try:
                compile(mutated, "mutant.py", "exec")
                if normal(mutated) == wanted and wanted != canonical:
                    found.append((operator, mutated))
                    break
            except SyntaxError:
                pass
    return found


def loaded_names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def bound_names(node: ast.AST) -> set[str]:
    names = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
            names.add(inner.id)
        elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(inner.name)
        elif isinstance(inner, ast.arg):
            names.add(inner.arg)
        elif isinstance(inner, (ast.Import, ast.ImportFrom)):
            for alias in inner.names:
                names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(inner, ast.ExceptHandler) and inner.name:
            names.add(inner.name)
    return names


class Rename(ast.NodeTransformer):
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id == self.old:
            node.id = self.new
        return node


def suite_statements(problem: dict, program: str) -> list[ast.stmt]:
    """HumanEval's check as top-level statements on the entry point: its module's helpers, then
    the check's body with `candidate` renamed; an assert that uses a name defined nowhere, or
    that does not call the entry point, is left out."""
    entry = problem["entry_point"]
    test = ast.parse(problem["test"])
    check = next(
        s for s in test.body if isinstance(s, ast.FunctionDef) and s.name == "check"
    )
    helpers = [
        s
        for s in test.body
        if s is not check
        and not (
            isinstance(s, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "METADATA" for t in s.targets)
        )
    ]
    known = set(dir(builtins)) | bound_names(ast.parse(program)) | {entry}
    kept = []
    for statement in helpers + [
        Rename("candidate", entry).visit(s) for s in check.body
    ]:
        is_test = any(isinstance(n, ast.Assert) for n in ast.walk(statement))
        if is_test:
            names = loaded_names(statement)
            if entry not in names or names - known - bound_names(statement):
                continue
        known |= bound_names(statement)
        kept.append(statement)
    return kept


def response(entry: str, statements: list[ast.stmt]) -> str:
    body = "\n".join(ast.unparse(s) for s in statements)
    return f"Tests for `{entry}`:\n\n```python\n{body}\n```\n"


def negation(statement: ast.Assert) -> ast.Assert:
    """An assert that fails whenever the given one holds."""
    test = statement.test
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
    ):
        return ast.Assert(
            test=ast.Compare(
                left=test.left, ops=[ast.NotEq()], comparators=test.comparators
            )
        )
    return ast.Assert(test=ast.UnaryOp(ast.Not(), test))


def suites(problem: dict, program: str) -> dict[str, str] | None:
    statements = suite_statements(problem, program)
    tests = [
        i
        for i, s in enumerate(statements)
        if any(isinstance(n, ast.Assert) for n in ast.walk(s))
    ]
    asserts = [i for i in tests if isinstance(statements[i], ast.Assert)]
    if not tests or not asserts:
        return None
    entry = problem["entry_point"]
    broken = statements + [negation(statements[asserts[0]])]
    return {
        "strong": response(entry, statements),
        "weak": response(entry, statements[: tests[0] + 1]),
        "broken": response(entry, broken),
    }


def suite_source(text: str) -> str:
    return text.split("```python\n", 1)[1].rsplit("\n```", 1)[0]


def outcomes(program: str, suite: str, pool: ThreadPoolExecutor) -> list[bool]:
    tests = split_suite(suite_source(suite))
    return list(pool.map(lambda t: run_pair(program, t[0], t[1]), tests))


def fast_everywhere(program: str, suite: str) -> bool:
    """Whether the program finishes every test of the suite within SLOW seconds."""
    for setup, test, _ in split_suite(suite_source(suite)):
        _, timed_out = run_program(program, setup, test, timeout=SLOW)
        if timed_out:
            return False
    return True


def main() -> None:
    problems = [
        json.loads(line) for line in SOURCE.read_text().splitlines() if line.strip()
    ]
    rows = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for problem in problems:
            if len(rows) == PROBLEMS:
                break
            test = problem["test"]
            if "random" in test and "random.Random(" not in test:
                continue  # an unseeded random check is not reproducible
            program = problem["prompt"] + problem["canonical_solution"]
            made = suites(problem, program)
            if made is None:
                continue
            if not all(outcomes(program, made["strong"], pool)):
                continue
            if all(outcomes(program, made["broken"], pool)):
                continue
            rng = random.Random(f"{SEED}:{problem['task_id']}")
            candidates = mutants(problem["prompt"], program)
            order = list(range(len(candidates)))
            rng.shuffle(order)
            chosen: list[int] = []
            seen = {normal(program)}
            for index in order:
                if len(chosen) == MAX_MUTANTS:
                    break
                text = candidates[index][1]
                if normal(text) in seen:
                    continue
                if not fast_everywhere(text, made["strong"]):
                    continue
                seen.add(normal(text))
                chosen.append(index)
            if len(chosen) < MIN_MUTANTS:
                continue
            chosen.sort()
            rows.append(
                {
                    "task_id": problem["task_id"],
                    "entry_point": problem["entry_point"],
                    "canonical": program,
                    "mutants": [candidates[i][1] for i in chosen],
                    "suites": made,
                }
            )
            operators = ", ".join(candidates[i][0] for i in chosen)
            print(
                f"{problem['task_id']}: {len(chosen)} mutants ({operators})",
                file=sys.stderr,
            )
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"wrote {len(rows)} problems to {OUTPUT.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
