from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="RewardGroup")


@_attrs_define
class RewardGroup:
    """The rewards of the rollouts of one prompt.

    Attributes:
        id (str): The trainer's group key (verl's `uid`, a prompt id).
        rewards (list[float]): One reward per rollout.
    """

    id: str
    rewards: list[float]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        rewards = self.rewards

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "rewards": rewards,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        rewards = cast(list[float], d.pop("rewards"))

        reward_group = cls(
            id=id,
            rewards=rewards,
        )

        return reward_group
