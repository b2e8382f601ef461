from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.code_score_item_verifier import (
    CodeScoreItemVerifier,
    check_code_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.code_input import CodeInput


T = TypeVar("T", bound="CodeScoreItem")


@_attrs_define
class CodeScoreItem:
    """An item for `code`. Runs a Python program (given, or the last fenced block of a response) against standard-input
    tests, function-call tests or a HumanEval-style check program in a WebAssembly sandbox with deterministic fuel
    budgets; scores all-or-nothing or the fraction of tests passed, with a verdict per test.

        Attributes:
            input_ (CodeInput): Runs a model-written program against tests in a WebAssembly sandbox (CPython 3.14 compiled
                to
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
            verifier (CodeScoreItemVerifier):
            group (None | str | Unset): The group of rollouts the item belongs to (GRPO's group; a string or an integer);
                items
                without one are grouped by `prompt_id` within their step.
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
            prompt_id (None | str | Unset): The prompt the response answers (a string, or an integer taken as its decimal
                text; at
                most 256 bytes): pass rates are kept per prompt.
            run (None | str | Unset): The training run the item belongs to (1 to 256 bytes); the request's `run` when
                absent.
                Items with a `run` feed `GET /v1/runs/{run}/stats`; with a `prompt_id`, the run's
                per-prompt pass rates. Items without one are not recorded.
            step (int | None | Unset): The training step (0 when absent; the request's `step` for items of the request's
                run).
    """

    input_: CodeInput
    verifier: CodeScoreItemVerifier
    group: None | str | Unset = UNSET
    id: None | str | Unset = UNSET
    label: None | str | Unset = UNSET
    prompt_id: None | str | Unset = UNSET
    run: None | str | Unset = UNSET
    step: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        input_ = self.input_.to_dict()

        verifier: str = self.verifier

        group: None | str | Unset
        if isinstance(self.group, Unset):
            group = UNSET
        else:
            group = self.group

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        prompt_id: None | str | Unset
        if isinstance(self.prompt_id, Unset):
            prompt_id = UNSET
        else:
            prompt_id = self.prompt_id

        run: None | str | Unset
        if isinstance(self.run, Unset):
            run = UNSET
        else:
            run = self.run

        step: int | None | Unset
        if isinstance(self.step, Unset):
            step = UNSET
        else:
            step = self.step

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "input": input_,
                "verifier": verifier,
            }
        )
        if group is not UNSET:
            field_dict["group"] = group
        if id is not UNSET:
            field_dict["id"] = id
        if label is not UNSET:
            field_dict["label"] = label
        if prompt_id is not UNSET:
            field_dict["prompt_id"] = prompt_id
        if run is not UNSET:
            field_dict["run"] = run
        if step is not UNSET:
            field_dict["step"] = step

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.code_input import CodeInput

        d = dict(src_dict)
        input_ = CodeInput.from_dict(d.pop("input"))

        verifier = check_code_score_item_verifier(d.pop("verifier"))

        def _parse_group(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        group = _parse_group(d.pop("group", UNSET))

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        def _parse_prompt_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        prompt_id = _parse_prompt_id(d.pop("prompt_id", UNSET))

        def _parse_run(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        run = _parse_run(d.pop("run", UNSET))

        def _parse_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        step = _parse_step(d.pop("step", UNSET))

        code_score_item = cls(
            input_=input_,
            verifier=verifier,
            group=group,
            id=id,
            label=label,
            prompt_id=prompt_id,
            run=run,
            step=step,
        )

        return code_score_item
