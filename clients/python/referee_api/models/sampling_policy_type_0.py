from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sampling_policy_type_0_name import (
    SamplingPolicyType0Name,
    check_sampling_policy_type_0_name,
)

T = TypeVar("T", bound="SamplingPolicyType0")


@_attrs_define
class SamplingPolicyType0:
    """DAPO's dynamic sampling (Yu et al., "DAPO: An Open-Source LLM Reinforcement Learning
    System at Scale", 2025): a group whose attempts all succeeded or all failed has zero
    advantage under group normalisation, so a prompt whose last group was all-1 or all-0 is
    dropped. Kept: `0 < last_successes < last_attempts`, and prompts never scored.

        Attributes:
            name (SamplingPolicyType0Name):
    """

    name: SamplingPolicyType0Name
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name: str = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = check_sampling_policy_type_0_name(d.pop("name"))

        sampling_policy_type_0 = cls(
            name=name,
        )

        sampling_policy_type_0.additional_properties = d
        return sampling_policy_type_0

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
