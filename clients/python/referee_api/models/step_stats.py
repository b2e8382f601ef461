from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.group_stats import GroupStats
    from ..models.verifier_step import VerifierStep


T = TypeVar("T", bound="StepStats")


@_attrs_define
class StepStats:
    """One step of a run.

    Attributes:
        items (int):
        step (int):
        verifiers (list[VerifierStep]):
        groups (GroupStats | None | Unset):
    """

    items: int
    step: int
    verifiers: list[VerifierStep]
    groups: GroupStats | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.group_stats import GroupStats

        items = self.items

        step = self.step

        verifiers = []
        for verifiers_item_data in self.verifiers:
            verifiers_item = verifiers_item_data.to_dict()
            verifiers.append(verifiers_item)

        groups: dict[str, Any] | None | Unset
        if isinstance(self.groups, Unset):
            groups = UNSET
        elif isinstance(self.groups, GroupStats):
            groups = self.groups.to_dict()
        else:
            groups = self.groups

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "step": step,
                "verifiers": verifiers,
            }
        )
        if groups is not UNSET:
            field_dict["groups"] = groups

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.group_stats import GroupStats
        from ..models.verifier_step import VerifierStep

        d = dict(src_dict)
        items = d.pop("items")

        step = d.pop("step")

        verifiers = []
        _verifiers = d.pop("verifiers")
        for verifiers_item_data in _verifiers:
            verifiers_item = VerifierStep.from_dict(verifiers_item_data)

            verifiers.append(verifiers_item)

        def _parse_groups(data: object) -> GroupStats | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                groups_type_0 = GroupStats.from_dict(data)

                return groups_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GroupStats | None | Unset, data)

        groups = _parse_groups(d.pop("groups", UNSET))

        step_stats = cls(
            items=items,
            step=step,
            verifiers=verifiers,
            groups=groups,
        )

        step_stats.additional_properties = d
        return step_stats

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
