from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="GroupAnswer")


@_attrs_define
class GroupAnswer:
    """One group's decision.

    Attributes:
        keep (bool): Whether the group is kept.
        id (None | str | Unset):
        std (float | None | Unset): The unbiased (N − 1) std of the group's rewards (1 for a single rollout under
            `single_rollout: std_one`); null for a single rollout under `drop`.
    """

    keep: bool
    id: None | str | Unset = UNSET
    std: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        keep = self.keep

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        std: float | None | Unset
        if isinstance(self.std, Unset):
            std = UNSET
        else:
            std = self.std

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "keep": keep,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if std is not UNSET:
            field_dict["std"] = std

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        keep = d.pop("keep")

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        def _parse_std(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        std = _parse_std(d.pop("std", UNSET))

        group_answer = cls(
            keep=keep,
            id=id,
            std=std,
        )

        group_answer.additional_properties = d
        return group_answer

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
