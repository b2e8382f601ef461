from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.step_episode_action import StepEpisodeAction


T = TypeVar("T", bound="StepEpisode")


@_attrs_define
class StepEpisode:
    """One action.

    Attributes:
        action (StepEpisodeAction): The action, in the environment's action schema.
    """

    action: StepEpisodeAction

    def to_dict(self) -> dict[str, Any]:
        action = self.action.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.step_episode_action import StepEpisodeAction

        d = dict(src_dict)
        action = StepEpisodeAction.from_dict(d.pop("action"))

        step_episode = cls(
            action=action,
        )

        return step_episode
