from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FilterGroup")


@_attrs_define
class FilterGroup:
    """One group of a step: the rewards of one prompt's rollouts.

    Attributes:
        rewards (list[float]): The rollouts' final rewards.
        id (None | str | Unset): Echoed in the answer.
    """

    rewards: list[float]
    id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        rewards = self.rewards

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "rewards": rewards,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        rewards = cast(list[float], d.pop("rewards"))

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        filter_group = cls(
            rewards=rewards,
            id=id,
        )

        return filter_group
