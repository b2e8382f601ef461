"""Splits an `asserts` test suite into its tests, in the sandbox.

Reads the suite on standard input and reports, as JSON in `__referee_report__`:
`{"setup": [source, ...], "tests": [{"line": n, "source": s, "setup": k}, ...]}`, where test i
runs after the first `k` setup statements, or `{"syntax_error": "..."}`.

A top-level statement is a test when it is not a definition or an import and either contains an
`assert` or calls a function the suite defines whose body asserts (HumanEval's
`check(candidate)`); every other statement is setup.
"""

import ast
import json
import sys

DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)


def _asserts(node):
    return any(isinstance(inner, ast.Assert) for inner in ast.walk(node))


def _segment(lines, node):
    """The statement's source, decorators included (a top-level decorator starts its line);
    columns are UTF-8 byte offsets."""
    decorators = getattr(node, "decorator_list", [])
    first, start = (min(d.lineno for d in decorators), 0) if decorators else (node.lineno, node.col_offset)
    chunk = lines[first - 1 : node.end_lineno]
    if len(chunk) == 1:
        return chunk[0][start : node.end_col_offset].decode("utf-8", "replace")
    chunk[0] = chunk[0][start:]
    chunk[-1] = chunk[-1][: node.end_col_offset]
    return b"".join(chunk).decode("utf-8", "replace")


def split(source):
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return {"syntax_error": f"{error.msg} (line {error.lineno})"}
    except (ValueError, RecursionError, MemoryError) as error:
        return {"syntax_error": f"{type(error).__name__}: {error}"[:300]}
    checkers = {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _asserts(node)
    }
    lines = source.encode("utf-8").splitlines(keepends=True)
    setup, tests = [], []
    for node in tree.body:
        text = _segment(lines, node)
        calls_checker = (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id in checkers
        )
        if not isinstance(node, DEFINITIONS) and (_asserts(node) or calls_checker):
            tests.append({"line": node.lineno, "source": text, "setup": len(setup)})
        else:
            setup.append(text)
    return {"setup": setup, "tests": tests}


__referee_report__ = json.dumps(split(sys.stdin.read()))
