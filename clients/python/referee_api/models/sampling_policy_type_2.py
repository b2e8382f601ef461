from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sampling_policy_type_2_name import (
    SamplingPolicyType2Name,
    check_sampling_policy_type_2_name,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="SamplingPolicyType2")


@_attrs_define
class SamplingPolicyType2:
    """Difficulty-weighted sampling by learnability (Foster and Foerster, "Learning to Reason
    at the Frontier of Learnability", 2025): weight `p (1 - p)` with the smoothed pass rate
    `p = (weighted_successes + prior) / (weighted_attempts + 2 prior)`, so an unseen prompt
    has `p = 0.5` and the largest weight; weights are normalised to sum to 1. With `count`,
    that many prompts (all of them when there are fewer) are drawn without replacement in
    proportion to their weights.

        Attributes:
            name (SamplingPolicyType2Name):
            count (int | None | Unset):
            prior (float | Unset):
            seed (int | Unset): Seeds the draw; the same seed and counts give the same sample.
    """

    name: SamplingPolicyType2Name
    count: int | None | Unset = UNSET
    prior: float | Unset = UNSET
    seed: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name: str = self.name

        count: int | None | Unset
        if isinstance(self.count, Unset):
            count = UNSET
        else:
            count = self.count

        prior = self.prior

        seed = self.seed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
            }
        )
        if count is not UNSET:
            field_dict["count"] = count
        if prior is not UNSET:
            field_dict["prior"] = prior
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = check_sampling_policy_type_2_name(d.pop("name"))

        def _parse_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        count = _parse_count(d.pop("count", UNSET))

        prior = d.pop("prior", UNSET)

        seed = d.pop("seed", UNSET)

        sampling_policy_type_2 = cls(
            name=name,
            count=count,
            prior=prior,
            seed=seed,
        )

        sampling_policy_type_2.additional_properties = d
        return sampling_policy_type_2

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
