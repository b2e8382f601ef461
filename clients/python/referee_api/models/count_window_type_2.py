from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.count_window_type_2_kind import (
    CountWindowType2Kind,
    check_count_window_type_2_kind,
)

T = TypeVar("T", bound="CountWindowType2")


@_attrs_define
class CountWindowType2:
    """Every count weighted by 2^(−age / `half_life_steps`), where age is how many steps ago it
    was made (0 in the current step). The weighted sums are rounded to whole counts.

        Attributes:
            half_life_steps (float): The age, in steps, at which a count weighs one half; more than 0.
            kind (CountWindowType2Kind):
    """

    half_life_steps: float
    kind: CountWindowType2Kind
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        half_life_steps = self.half_life_steps

        kind: str = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "half_life_steps": half_life_steps,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        half_life_steps = d.pop("half_life_steps")

        kind = check_count_window_type_2_kind(d.pop("kind"))

        count_window_type_2 = cls(
            half_life_steps=half_life_steps,
            kind=kind,
        )

        count_window_type_2.additional_properties = d
        return count_window_type_2

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
