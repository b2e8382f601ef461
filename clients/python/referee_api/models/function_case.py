from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="FunctionCase")


@_attrs_define
class FunctionCase:
    """One call of the entry point.

    Attributes:
        args (list[Any]): Positional arguments, as JSON values.
        expected (Any): The value a correct function returns. Tuples compare as arrays; floats with the
            `float` checker's tolerances when the checker is `float`, exactly otherwise.
    """

    args: list[Any]
    expected: Any

    def to_dict(self) -> dict[str, Any]:
        args = self.args

        expected = self.expected

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "args": args,
                "expected": expected,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        args = cast(list[Any], d.pop("args"))

        expected = d.pop("expected")

        function_case = cls(
            args=args,
            expected=expected,
        )

        return function_case
