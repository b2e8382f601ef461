from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.episode_state_state import EpisodeStateState


T = TypeVar("T", bound="EpisodeState")


@_attrs_define
class EpisodeState:
    """A live episode's state, as `GET /v1/episodes/{id}/state` answers.

    Attributes:
        environment (str):
        episode_id (str):
        state (EpisodeStateState): What the environment says of its state.
        total_reward (float):
        turn (int):
    """

    environment: str
    episode_id: str
    state: EpisodeStateState
    total_reward: float
    turn: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        environment = self.environment

        episode_id = self.episode_id

        state = self.state.to_dict()

        total_reward = self.total_reward

        turn = self.turn

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "environment": environment,
                "episode_id": episode_id,
                "state": state,
                "total_reward": total_reward,
                "turn": turn,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.episode_state_state import EpisodeStateState

        d = dict(src_dict)
        environment = d.pop("environment")

        episode_id = d.pop("episode_id")

        state = EpisodeStateState.from_dict(d.pop("state"))

        total_reward = d.pop("total_reward")

        turn = d.pop("turn")

        episode_state = cls(
            environment=environment,
            episode_id=episode_id,
            state=state,
            total_reward=total_reward,
            turn=turn,
        )

        episode_state.additional_properties = d
        return episode_state

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
