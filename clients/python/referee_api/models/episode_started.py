from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.episode_started_observation import EpisodeStartedObservation


T = TypeVar("T", bound="EpisodeStarted")


@_attrs_define
class EpisodeStarted:
    """A new episode, as `POST /v1/episodes` answers.

    Attributes:
        done (bool): Always false for a new episode.
        environment (str):
        episode_id (str):
        observation (EpisodeStartedObservation): What the agent sees first.
        replica (str): The replica that holds the episode: every step must reach it.
    """

    done: bool
    environment: str
    episode_id: str
    observation: EpisodeStartedObservation
    replica: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        done = self.done

        environment = self.environment

        episode_id = self.episode_id

        observation = self.observation.to_dict()

        replica = self.replica

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "done": done,
                "environment": environment,
                "episode_id": episode_id,
                "observation": observation,
                "replica": replica,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.episode_started_observation import EpisodeStartedObservation

        d = dict(src_dict)
        done = d.pop("done")

        environment = d.pop("environment")

        episode_id = d.pop("episode_id")

        observation = EpisodeStartedObservation.from_dict(d.pop("observation"))

        replica = d.pop("replica")

        episode_started = cls(
            done=done,
            environment=environment,
            episode_id=episode_id,
            observation=observation,
            replica=replica,
        )

        episode_started.additional_properties = d
        return episode_started

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
