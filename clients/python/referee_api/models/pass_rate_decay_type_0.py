from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pass_rate_decay_type_0_kind import (
    PassRateDecayType0Kind,
    check_pass_rate_decay_type_0_kind,
)

T = TypeVar("T", bound="PassRateDecayType0")


@_attrs_define
class PassRateDecayType0:
    """Every step counts fully.

    Attributes:
        kind (PassRateDecayType0Kind):
    """

    kind: PassRateDecayType0Kind
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
        kind = check_pass_rate_decay_type_0_kind(d.pop("kind"))

        pass_rate_decay_type_0 = cls(
            kind=kind,
        )

        pass_rate_decay_type_0.additional_properties = d
        return pass_rate_decay_type_0

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
