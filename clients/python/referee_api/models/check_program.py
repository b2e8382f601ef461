from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="CheckProgram")


@_attrs_define
class CheckProgram:
    """A HumanEval-style test program.

    Attributes:
        entry_point (str): The function under test (passed to `check`; a compiled test program calls it itself).
        program (str): The test program: Python defining `check(candidate)`, JavaScript that runs its tests (or
            defines `check(candidate)`), C, C++ or Rust compiled after the program with its own
            `main` or `#[test]` functions, or a Go test file with `TestXxx` functions; it raises
            (usually `AssertionError`) or fails an `assert` or a test on failure.
    """

    entry_point: str
    program: str

    def to_dict(self) -> dict[str, Any]:
        entry_point = self.entry_point

        program = self.program

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "entry_point": entry_point,
                "program": program,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        entry_point = d.pop("entry_point")

        program = d.pop("program")

        check_program = cls(
            entry_point=entry_point,
            program=program,
        )

        return check_program
