from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.process_check_type_1_by import (
    ProcessCheckType1By,
    check_process_check_type_1_by,
)

T = TypeVar("T", bound="ProcessCheckType1")


@_attrs_define
class ProcessCheckType1:
    """A scorer checks steps' intermediate answers: step k's text is the `response` of the
    scorer's input `expected[k]` (e.g. `{"reference": "12"}` for `math`); a step whose entry
    is null or missing is not checked (its score is null, outside the aggregate).

        Attributes:
            by (ProcessCheckType1By):
            expected (list[Any]): One input object (without `response`) or null per step, in order.
            verifier (str): `math`, `exact-match`, `multiple-choice`, `regex-match`, `np`, `code`, `rlpr`.
    """

    by: ProcessCheckType1By
    expected: list[Any]
    verifier: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        by: str = self.by

        expected = self.expected

        verifier = self.verifier

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "by": by,
                "expected": expected,
                "verifier": verifier,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        by = check_process_check_type_1_by(d.pop("by"))

        expected = cast(list[Any], d.pop("expected"))

        verifier = d.pop("verifier")

        process_check_type_1 = cls(
            by=by,
            expected=expected,
            verifier=verifier,
        )

        process_check_type_1.additional_properties = d
        return process_check_type_1

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
