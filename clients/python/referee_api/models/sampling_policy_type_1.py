from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sampling_policy_type_1_name import (
    SamplingPolicyType1Name,
    check_sampling_policy_type_1_name,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="SamplingPolicyType1")


@_attrs_define
class SamplingPolicyType1:
    """A target pass-rate band (online difficulty filtering, Bae et al., "Online Difficulty
    Filtering for Reasoning Oriented Reinforcement Learning", 2025): kept when
    `low <= pass_rate <= high` (so nothing scored is kept when `low > high`), and prompts with
    fewer than `min_attempts` weighted attempts.

        Attributes:
            high (float):
            low (float):
            name (SamplingPolicyType1Name):
            min_attempts (float | Unset):
    """

    high: float
    low: float
    name: SamplingPolicyType1Name
    min_attempts: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        high = self.high

        low = self.low

        name: str = self.name

        min_attempts = self.min_attempts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "high": high,
                "low": low,
                "name": name,
            }
        )
        if min_attempts is not UNSET:
            field_dict["min_attempts"] = min_attempts

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        high = d.pop("high")

        low = d.pop("low")

        name = check_sampling_policy_type_1_name(d.pop("name"))

        min_attempts = d.pop("min_attempts", UNSET)

        sampling_policy_type_1 = cls(
            high=high,
            low=low,
            name=name,
            min_attempts=min_attempts,
        )

        sampling_policy_type_1.additional_properties = d
        return sampling_policy_type_1

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
