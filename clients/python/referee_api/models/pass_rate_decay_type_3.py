from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pass_rate_decay_type_3_kind import (
    PassRateDecayType3Kind,
    check_pass_rate_decay_type_3_kind,
)

T = TypeVar("T", bound="PassRateDecayType3")


@_attrs_define
class PassRateDecayType3:
    """Both: only the last `steps` steps count, each with the exponential weight.

    Attributes:
        half_life (float):
        kind (PassRateDecayType3Kind):
        steps (int):
    """

    half_life: float
    kind: PassRateDecayType3Kind
    steps: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        half_life = self.half_life

        kind: str = self.kind

        steps = self.steps

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "half_life": half_life,
                "kind": kind,
                "steps": steps,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        half_life = d.pop("half_life")

        kind = check_pass_rate_decay_type_3_kind(d.pop("kind"))

        steps = d.pop("steps")

        pass_rate_decay_type_3 = cls(
            half_life=half_life,
            kind=kind,
            steps=steps,
        )

        pass_rate_decay_type_3.additional_properties = d
        return pass_rate_decay_type_3

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
