"""The guest side of Referee's Python runtime.

componentize-py pre-initialises this module at build time: everything imported here is part of
the heap snapshot, and nothing else of the standard library exists at run time. The snapshot's
heap is frozen so that CPython's garbage collector does not touch (and copy) it in every run.
"""

import gc
import io
import marshal
import sys
import traceback

# The modules solutions commonly use. Only these (and what they import) can be imported at run time.
PRELOAD = """
abc argparse array ast base64 binascii bisect calendar cmath collections collections.abc contextlib copy
csv dataclasses datetime decimal difflib dis email enum fractions functools gc gettext graphlib hashlib
heapq hmac inspect io itertools json keyword locale math numbers operator os pickle pprint queue random
re secrets select statistics string struct textwrap threading time tokenize traceback types typing
unicodedata uuid warnings weakref zlib zoneinfo xml.etree.ElementTree copyreg reprlib shlex sched
fnmatch glob pathlib signal subprocess socket
""".split()

for _name in PRELOAD:
    try:
        __import__(_name)
    except ImportError:
        pass

import random  # noqa: E402

import wit_world  # noqa: E402

gc.collect()
gc.freeze()


def _exit_code(code) -> int:
    if code is None:
        return 0
    if isinstance(code, bool):
        return int(code)
    if isinstance(code, int):
        return code if -(2**31) <= code < 2**31 else 1
    print(code, file=sys.stderr)
    return 1


def _flush():
    """Flushes what the program left buffered; the type name of the error when its standard
    output cannot be flushed (a `MemoryError` while encoding a huge write, a closed stream), so
    that output lost at exit is reported rather than silently dropped."""
    failure = None
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException as error:  # noqa: BLE001 - every failure is reported, none escapes
            if failure is None and stream is sys.stdout:
                failure = type(error).__name__
    return failure


class WitWorld(wit_world.WitWorld):
    def compile_harness(self, harness: str):
        try:
            return marshal.dumps(compile(harness, "<harness>", "exec"))
        except BaseException:  # noqa: BLE001 - a harness that does not compile is compiled in its run
            return None

    def run(self, program: str, stdin: bytes, harness, harness_code, seed: int) -> wit_world.Outcome:
        random.seed(seed)
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="replace")
        name = "__main__" if harness is None else "solution"
        namespace = {"__name__": name, "__builtins__": __builtins__}
        exit_code = 0
        exception = None
        compiled = False
        try:
            code = compile(program, "<program>", "exec")
            compiled = True
            exec(code, namespace)
            if harness_code is not None:
                exec(marshal.loads(harness_code), namespace)
            elif harness is not None:
                exec(compile(harness, "<harness>", "exec"), namespace)
        except SystemExit as exit:
            exit_code = _exit_code(exit.code)
        except BaseException as error:  # noqa: BLE001 - every failure is reported, none escapes
            exit_code = 1
            exception = type(error).__name__
            try:
                traceback.print_exc()
            except BaseException:  # noqa: BLE001
                pass
        flush_failure = _flush()
        if flush_failure is not None and exception is None:
            exception = flush_failure
            exit_code = exit_code or 1
        report = namespace.get("__referee_report__", "")
        if not isinstance(report, str):
            report = ""
        return wit_world.Outcome(
            exit_code=exit_code, exception=exception, compile_error=not compiled, report=report
        )
