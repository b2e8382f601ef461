from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.count_window_type_0_kind import (
    CountWindowType0Kind,
    check_count_window_type_0_kind,
)

T = TypeVar("T", bound="CountWindowType0")


@_attrs_define
class CountWindowType0:
    """Every count since the tally began (the default when no window is set).

    Attributes:
        kind (CountWindowType0Kind):
    """

    kind: CountWindowType0Kind
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = check_count_window_type_0_kind(d.pop("kind"))

        count_window_type_0 = cls(
            kind=kind,
        )

        count_window_type_0.additional_properties = d
        return count_window_type_0

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
