from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GroupAdvantages")


@_attrs_define
class GroupAdvantages:
    """One group's advantages and statistics.

    Attributes:
        advantages (list[float]): One advantage per rollout: exactly 0 where all values agree (zero std).
        all_agree (bool): Whether every rollout got the same raw reward: the group teaches nothing under any
            group-constant correction.
        id (str): The group key, as given.
        keep (bool): DAPO's dynamic-sampling rule: keep a group unless all of its several rollouts agree.
        mean (float): The baseline subtracted: the mean of `values`, or 0 for a group of one under
            `single_rollout: verl` (v for `zero`).
        std (float): The scale divided by (before epsilon): the std of `values` by the requested estimator, 0
            when all values agree, and for a group of one 1 under `single_rollout: verl` (0 for
            `zero`).
        values (list[float]): The values the advantages come from: the rewards, or their corrections.
    """

    advantages: list[float]
    all_agree: bool
    id: str
    keep: bool
    mean: float
    std: float
    values: list[float]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        advantages = self.advantages

        all_agree = self.all_agree

        id = self.id

        keep = self.keep

        mean = self.mean

        std = self.std

        values = self.values

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "advantages": advantages,
                "all_agree": all_agree,
                "id": id,
                "keep": keep,
                "mean": mean,
                "std": std,
                "values": values,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        advantages = cast(list[float], d.pop("advantages"))

        all_agree = d.pop("all_agree")

        id = d.pop("id")

        keep = d.pop("keep")

        mean = d.pop("mean")

        std = d.pop("std")

        values = cast(list[float], d.pop("values"))

        group_advantages = cls(
            advantages=advantages,
            all_agree=all_agree,
            id=id,
            keep=keep,
            mean=mean,
            std=std,
            values=values,
        )

        group_advantages.additional_properties = d
        return group_advantages

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
