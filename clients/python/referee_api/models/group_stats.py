from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.mean_at_k import MeanAtK
    from ..models.pass_at_k import PassAtK


T = TypeVar("T", bound="GroupStats")


@_attrs_define
class GroupStats:
    """The groups of one step: the attempts of items that share a `group` (or, without one, a
    `prompt_id`).

        Attributes:
            all_correct (int): Groups whose attempts all succeeded: they carry no learning signal in GRPO-style
                advantages (DAPO's dynamic sampling drops them).
            all_wrong (int): Groups whose attempts all failed.
            groups (int):
            mean_at_k (list[MeanAtK]): mean@k for each group size k present.
            pass_at_k (list[PassAtK]): pass@k for k = 1, 2, 4, ... up to the largest group.
    """

    all_correct: int
    all_wrong: int
    groups: int
    mean_at_k: list[MeanAtK]
    pass_at_k: list[PassAtK]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        all_correct = self.all_correct

        all_wrong = self.all_wrong

        groups = self.groups

        mean_at_k = []
        for mean_at_k_item_data in self.mean_at_k:
            mean_at_k_item = mean_at_k_item_data.to_dict()
            mean_at_k.append(mean_at_k_item)

        pass_at_k = []
        for pass_at_k_item_data in self.pass_at_k:
            pass_at_k_item = pass_at_k_item_data.to_dict()
            pass_at_k.append(pass_at_k_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "all_correct": all_correct,
                "all_wrong": all_wrong,
                "groups": groups,
                "mean_at_k": mean_at_k,
                "pass_at_k": pass_at_k,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mean_at_k import MeanAtK
        from ..models.pass_at_k import PassAtK

        d = dict(src_dict)
        all_correct = d.pop("all_correct")

        all_wrong = d.pop("all_wrong")

        groups = d.pop("groups")

        mean_at_k = []
        _mean_at_k = d.pop("mean_at_k")
        for mean_at_k_item_data in _mean_at_k:
            mean_at_k_item = MeanAtK.from_dict(mean_at_k_item_data)

            mean_at_k.append(mean_at_k_item)

        pass_at_k = []
        _pass_at_k = d.pop("pass_at_k")
        for pass_at_k_item_data in _pass_at_k:
            pass_at_k_item = PassAtK.from_dict(pass_at_k_item_data)

            pass_at_k.append(pass_at_k_item)

        group_stats = cls(
            all_correct=all_correct,
            all_wrong=all_wrong,
            groups=groups,
            mean_at_k=mean_at_k,
            pass_at_k=pass_at_k,
        )

        group_stats.additional_properties = d
        return group_stats

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
