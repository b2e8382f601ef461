from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pass_rate_decay_type_2_kind import (
    PassRateDecayType2Kind,
    check_pass_rate_decay_type_2_kind,
)

T = TypeVar("T", bound="PassRateDecayType2")


@_attrs_define
class PassRateDecayType2:
    """A step `s` counts with weight `0.5^((S - s) / half_life)`.

    Attributes:
        half_life (float):
        kind (PassRateDecayType2Kind):
    """

    half_life: float
    kind: PassRateDecayType2Kind
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        half_life = self.half_life

        kind: str = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "half_life": half_life,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        half_life = d.pop("half_life")

        kind = check_pass_rate_decay_type_2_kind(d.pop("kind"))

        pass_rate_decay_type_2 = cls(
            half_life=half_life,
            kind=kind,
        )

        pass_rate_decay_type_2.additional_properties = d
        return pass_rate_decay_type_2

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
