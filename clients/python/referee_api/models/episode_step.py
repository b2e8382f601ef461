from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.episode_status import EpisodeStatus, check_episode_status

if TYPE_CHECKING:
    from ..models.episode_step_observation import EpisodeStepObservation


T = TypeVar("T", bound="EpisodeStep")


@_attrs_define
class EpisodeStep:
    """One step's answer.

    Attributes:
        done (bool):
        episode_id (str):
        observation (EpisodeStepObservation):
        reward (float):
        status (EpisodeStatus): How an episode stands.
        total_reward (float): The sum of the episode's rewards so far.
        turn (int): The number of this action, from 1.
    """

    done: bool
    episode_id: str
    observation: EpisodeStepObservation
    reward: float
    status: EpisodeStatus
    total_reward: float
    turn: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        done = self.done

        episode_id = self.episode_id

        observation = self.observation.to_dict()

        reward = self.reward

        status: str = self.status

        total_reward = self.total_reward

        turn = self.turn

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "done": done,
                "episode_id": episode_id,
                "observation": observation,
                "reward": reward,
                "status": status,
                "total_reward": total_reward,
                "turn": turn,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.episode_step_observation import EpisodeStepObservation

        d = dict(src_dict)
        done = d.pop("done")

        episode_id = d.pop("episode_id")

        observation = EpisodeStepObservation.from_dict(d.pop("observation"))

        reward = d.pop("reward")

        status = check_episode_status(d.pop("status"))

        total_reward = d.pop("total_reward")

        turn = d.pop("turn")

        episode_step = cls(
            done=done,
            episode_id=episode_id,
            observation=observation,
            reward=reward,
            status=status,
            total_reward=total_reward,
            turn=turn,
        )

        episode_step.additional_properties = d
        return episode_step

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
