from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="StdioTest")


@_attrs_define
class StdioTest:
    """One standard-input test.

    Attributes:
        expected_stdout (str): The standard output a correct program prints.
        stdin (str): The program's standard input.
    """

    expected_stdout: str
    stdin: str

    def to_dict(self) -> dict[str, Any]:
        expected_stdout = self.expected_stdout

        stdin = self.stdin

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "expected_stdout": expected_stdout,
                "stdin": stdin,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        expected_stdout = d.pop("expected_stdout")

        stdin = d.pop("stdin")

        stdio_test = cls(
            expected_stdout=expected_stdout,
            stdin=stdin,
        )

        return stdio_test
