from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.function_case import FunctionCase


T = TypeVar("T", bound="FunctionTests")


@_attrs_define
class FunctionTests:
    """Function-call tests: `entry_point(*args) == expected` for each case.

    Attributes:
        cases (list[FunctionCase]): The calls to make.
        entry_point (str): The name of the function the program defines.
    """

    cases: list[FunctionCase]
    entry_point: str

    def to_dict(self) -> dict[str, Any]:
        cases = []
        for cases_item_data in self.cases:
            cases_item = cases_item_data.to_dict()
            cases.append(cases_item)

        entry_point = self.entry_point

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cases": cases,
                "entry_point": entry_point,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.function_case import FunctionCase

        d = dict(src_dict)
        cases = []
        _cases = d.pop("cases")
        for cases_item_data in _cases:
            cases_item = FunctionCase.from_dict(cases_item_data)

            cases.append(cases_item)

        entry_point = d.pop("entry_point")

        function_tests = cls(
            cases=cases,
            entry_point=entry_point,
        )

        return function_tests
