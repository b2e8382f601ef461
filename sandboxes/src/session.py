"""The first cell of a persistent Python session, run as the program of the Python runtime.

The cell's source arrives on standard input. The session's namespace lives in a module kept in
`sys.modules`, so it outlives this program: variables, imports and functions of earlier cells are
there for the next. Like a notebook cell, a final expression's value is reported (its `repr`) and
kept as `_`. The outcome goes back as JSON in `__referee_report__`.
"""

import ast
import io
import json
import sys
import traceback
import types

MAX_VALUE_CHARS = 65536


def _session():
    session = sys.modules.get("__referee_session__")
    if session is None:
        session = types.ModuleType("__referee_session__")
        session.cells = 0
        session.namespace = {"__name__": "__main__", "__builtins__": __builtins__}
        sys.modules["__referee_session__"] = session
    return session


def _exception(error):
    try:
        message = str(error)
    except BaseException:  # noqa: BLE001 - a broken __str__ is still reported
        message = ""
    return {"type": type(error).__name__, "message": message[:MAX_VALUE_CHARS]}


def _print_exception(error, skip_frames):
    tb = error.__traceback__
    for _ in range(skip_frames):
        if tb is not None:
            tb = tb.tb_next
    try:
        traceback.print_exception(type(error), error, tb)
    except BaseException:  # noqa: BLE001
        pass


def _cell(source):
    session = _session()
    session.cells += 1
    name = f"<cell {session.cells}>"
    namespace = session.namespace
    report = {"cell": session.cells, "value": None, "exception": None}
    try:
        tree = ast.parse(source, name, "exec")
    except (SyntaxError, ValueError) as error:
        _print_exception(error, 1)
        report["exception"] = _exception(error)
        return report
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    try:
        exec(compile(tree, name, "exec"), namespace)
        if last is not None:
            value = eval(compile(last, name, "eval"), namespace)
            if value is not None:
                namespace["_"] = value
                text = repr(value)
                if len(text) > MAX_VALUE_CHARS:
                    text = text[:MAX_VALUE_CHARS]
                    report["value_truncated"] = True
                report["value"] = text
    except BaseException as error:  # noqa: BLE001 - SystemExit and KeyboardInterrupt end the cell, not the session
        _print_exception(error, 1)
        report["exception"] = _exception(error)
    return report


def _run():
    """Runs the cell on standard input; its report as JSON."""
    source = sys.stdin.read()
    sys.stdin = io.StringIO("")
    return json.dumps(_cell(source))


# Later cells call `run` directly (`NEXT_CELL` in session.rs) instead of compiling this driver
# again.
_session().run = _run
__referee_report__ = _run()
