"""The guest side of Referee's Python runtime.

componentize-py pre-initialises this module at build time: everything imported here is part of
the heap snapshot, and nothing else of the standard library exists at run time. The snapshot's
heap is frozen so that CPython's garbage collector does not touch (and copy) it in every run.
"""

import builtins
import gc
import io
import marshal
import sys
import traceback
import warnings

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
from componentize_py_types import Err  # noqa: E402

gc.collect()
gc.freeze()


# What a run needs after its program has run, taken before any program can replace it: a program
# may rebind built-ins (`builtins.exec = ...`) or module attributes (`marshal.loads`, `sys.settrace`,
# `wit_world.Outcome`), and its harness must still run, and the run still report what happened.
# `run` unpacks these into its locals before the program starts. The built-ins are kept as a tuple
# of pairs, which no program can change.
_GUARDS = (
    exec,
    compile,
    marshal.loads,
    sys.settrace,
    sys.setprofile,
    wit_world.Outcome,
    vars(builtins),
    tuple(vars(builtins).items()),
    type,
    isinstance,
    str,
    SystemExit,
    BaseException,
)


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
    def compile(self, source: str, file_name: str, run_warns: bool) -> bytes:
        # Warnings are recorded rather than shown; a program whose compile warns is compiled in
        # its run, where the warnings reach the run's standard error as they always did.
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                code = compile(source, file_name, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            raise Err(wit_world.NotCompiled.IN_RUN) from None
        except BaseException:  # noqa: BLE001 - MemoryError, RecursionError: this instance's limits
            raise Err(wit_world.NotCompiled.EXHAUSTED) from None
        if caught and run_warns:
            raise Err(wit_world.NotCompiled.IN_RUN)
        return marshal.dumps(code)

    def run(self, program: str, program_code, stdin: bytes, harness, harness_code, seed: int) -> wit_world.Outcome:
        (run_code, compile_source, load_code, settrace, setprofile, outcome, builtins_dict, pristine, type_of,
         is_instance, string, system_exit, base_exception) = _GUARDS
        random.seed(seed)
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="replace")
        name = "__main__" if harness is None else "solution"
        namespace = {"__name__": name, "__builtins__": __builtins__}
        exit_code = 0
        exception = None
        compiled = False
        # With a harness, only the harness reports, and only when it ran to its end: a program
        # that sets `__referee_report__` and exits before its harness runs reports nothing.
        # Without one, the program reports (the host's own helper programs do).
        harness_finished = False
        try:
            if program_code is not None:
                code = load_code(program_code)
            else:
                code = compile_source(program, "<program>", "exec")
            compiled = True
            run_code(code, namespace)
            if harness is not None:
                # The harness runs on the interpreter as the runtime started it: the program's
                # trace and profile hooks off, the built-ins restored, and no report of its own.
                settrace(None)
                setprofile(None)
                builtins_dict.clear()
                builtins_dict.update(pristine)
                namespace["__builtins__"] = builtins_dict
                namespace.pop("__referee_report__", None)
                if harness_code is not None:
                    run_code(load_code(harness_code), namespace)
                else:
                    run_code(compile_source(harness, "<harness>", "exec"), namespace)
                harness_finished = True
        except system_exit as exit:
            exit_code = _exit_code(exit.code)
        except base_exception as error:  # noqa: BLE001 - every failure is reported, none escapes
            exit_code = 1
            exception = type_of(error).__name__
            try:
                traceback.print_exc()
            except BaseException:  # noqa: BLE001
                pass
        flush_failure = _flush()
        if flush_failure is not None and exception is None:
            exception = flush_failure
            exit_code = exit_code or 1
        report = namespace.get("__referee_report__", "") if harness is None or harness_finished else ""
        if not is_instance(report, string):
            report = ""
        return outcome(exit_code=exit_code, exception=exception, compile_error=not compiled, report=report)
