from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.language import Language, check_language
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.check_program import CheckProgram
    from ..models.code_options import CodeOptions
    from ..models.function_tests import FunctionTests
    from ..models.stdio_test import StdioTest


T = TypeVar("T", bound="CodeInput")


@_attrs_define
class CodeInput:
    """Runs a model-written program against tests in a WebAssembly sandbox (CPython 3.14 compiled to
    WASI, JavaScript on QuickJS-NG compiled to WASI, C/C++ compiled by clang, Rust compiled by
    rustc to `wasm32-wasi` or Go compiled to `wasip1`, run by wasmtime) and scores the fraction of tests passed or
    all-or-nothing.

    Give the program as `program`, or the whole `response`, whose last fenced code block is the
    program. Give exactly one kind of test:

    - `tests`: standard-input tests; each runs the program in a fresh instance and compares its
      standard output with `expected_stdout` using the `checker`;
    - `function_tests` (Python, JavaScript): calls `entry_point` with each case's `args` in one
      instance and compares the returned value with `expected`;
    - `check`: a test program run after the program that raises on failure. In Python it defines
      `check(candidate)`, called with the entry point; a JavaScript test program runs its own
      tests (MultiPL-E's `assert`, HumanEval-X's `console.assert`) or defines `check(candidate)`.
      A C, C++ or Rust test program is compiled after the program and has the `main` (or, in Rust,
      `#[test]` functions); a failed `assert` is a wrong answer. A Go test program is the
      package's test file, with `func TestXxx(t *testing.T)` functions (testify's `assert` and
      `require` are there); a failed test is a wrong answer. It passes when it finishes without
      an error.

    Budgets are deterministic: `fuel` (about 10^10 units per second of interpreter CPU) decides
    `time_limit` verdicts, so the same program earns the same reward however loaded the server
    is. `time_limit_ms` is only a wall-clock backstop.

        Attributes:
            language (Language): The language of a program.
            check (CheckProgram | None | Unset):
            function_tests (FunctionTests | None | Unset):
            options (CodeOptions | Unset): Checker, limits and scoring of one item.
            program (None | str | Unset): The program's source. Exactly one of `program` and `response`.
            response (None | str | Unset): A full model response; the last fenced code block (```` ``` ````) is the program,
                text
                before a closing `</think>` is ignored.
            tests (list[StdioTest] | None | Unset): Standard-input tests.
    """

    language: Language
    check: CheckProgram | None | Unset = UNSET
    function_tests: FunctionTests | None | Unset = UNSET
    options: CodeOptions | Unset = UNSET
    program: None | str | Unset = UNSET
    response: None | str | Unset = UNSET
    tests: list[StdioTest] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.check_program import CheckProgram
        from ..models.function_tests import FunctionTests

        language: str = self.language

        check: dict[str, Any] | None | Unset
        if isinstance(self.check, Unset):
            check = UNSET
        elif isinstance(self.check, CheckProgram):
            check = self.check.to_dict()
        else:
            check = self.check

        function_tests: dict[str, Any] | None | Unset
        if isinstance(self.function_tests, Unset):
            function_tests = UNSET
        elif isinstance(self.function_tests, FunctionTests):
            function_tests = self.function_tests.to_dict()
        else:
            function_tests = self.function_tests

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        program: None | str | Unset
        if isinstance(self.program, Unset):
            program = UNSET
        else:
            program = self.program

        response: None | str | Unset
        if isinstance(self.response, Unset):
            response = UNSET
        else:
            response = self.response

        tests: list[dict[str, Any]] | None | Unset
        if isinstance(self.tests, Unset):
            tests = UNSET
        elif isinstance(self.tests, list):
            tests = []
            for tests_type_0_item_data in self.tests:
                tests_type_0_item = tests_type_0_item_data.to_dict()
                tests.append(tests_type_0_item)

        else:
            tests = self.tests

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "language": language,
            }
        )
        if check is not UNSET:
            field_dict["check"] = check
        if function_tests is not UNSET:
            field_dict["function_tests"] = function_tests
        if options is not UNSET:
            field_dict["options"] = options
        if program is not UNSET:
            field_dict["program"] = program
        if response is not UNSET:
            field_dict["response"] = response
        if tests is not UNSET:
            field_dict["tests"] = tests

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.check_program import CheckProgram
        from ..models.code_options import CodeOptions
        from ..models.function_tests import FunctionTests
        from ..models.stdio_test import StdioTest

        d = dict(src_dict)
        language = check_language(d.pop("language"))

        def _parse_check(data: object) -> CheckProgram | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                check_type_0 = CheckProgram.from_dict(data)

                return check_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CheckProgram | None | Unset, data)

        check = _parse_check(d.pop("check", UNSET))

        def _parse_function_tests(data: object) -> FunctionTests | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                function_tests_type_0 = FunctionTests.from_dict(data)

                return function_tests_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FunctionTests | None | Unset, data)

        function_tests = _parse_function_tests(d.pop("function_tests", UNSET))

        _options = d.pop("options", UNSET)
        options: CodeOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = CodeOptions.from_dict(_options)

        def _parse_program(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        program = _parse_program(d.pop("program", UNSET))

        def _parse_response(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        response = _parse_response(d.pop("response", UNSET))

        def _parse_tests(data: object) -> list[StdioTest] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tests_type_0 = []
                _tests_type_0 = data
                for tests_type_0_item_data in _tests_type_0:
                    tests_type_0_item = StdioTest.from_dict(tests_type_0_item_data)

                    tests_type_0.append(tests_type_0_item)

                return tests_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[StdioTest] | None | Unset, data)

        tests = _parse_tests(d.pop("tests", UNSET))

        code_input = cls(
            language=language,
            check=check,
            function_tests=function_tests,
            options=options,
            program=program,
            response=response,
            tests=tests,
        )

        return code_input
