from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.count_window_type_1_kind import (
    CountWindowType1Kind,
    check_count_window_type_1_kind,
)

T = TypeVar("T", bound="CountWindowType1")


@_attrs_define
class CountWindowType1:
    """The counts of the last `steps` steps, the current one included.

    Attributes:
        kind (CountWindowType1Kind):
        steps (int): How many steps, at least 1 and at most 10^9.
    """

    kind: CountWindowType1Kind
    steps: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        steps = self.steps

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "steps": steps,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = check_count_window_type_1_kind(d.pop("kind"))

        steps = d.pop("steps")

        count_window_type_1 = cls(
            kind=kind,
            steps=steps,
        )

        count_window_type_1.additional_properties = d
        return count_window_type_1

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
