from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pass_rate_decay_type_1_kind import (
    PassRateDecayType1Kind,
    check_pass_rate_decay_type_1_kind,
)

T = TypeVar("T", bound="PassRateDecayType1")


@_attrs_define
class PassRateDecayType1:
    """Only the last `steps` steps count: those after `S - steps`.

    Attributes:
        kind (PassRateDecayType1Kind):
        steps (int):
    """

    kind: PassRateDecayType1Kind
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
        kind = check_pass_rate_decay_type_1_kind(d.pop("kind"))

        steps = d.pop("steps")

        pass_rate_decay_type_1 = cls(
            kind=kind,
            steps=steps,
        )

        pass_rate_decay_type_1.additional_properties = d
        return pass_rate_decay_type_1

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
