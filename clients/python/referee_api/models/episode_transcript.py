from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.episode_status import EpisodeStatus, check_episode_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.stored_episode_options import StoredEpisodeOptions
    from ..models.stored_step import StoredStep


T = TypeVar("T", bound="EpisodeTranscript")


@_attrs_define
class EpisodeTranscript:
    """An episode with its transcript, as `GET /v1/episodes/{id}` answers.

    Attributes:
        created_at_ms (int):
        environment (str):
        episode_id (str):
        options (StoredEpisodeOptions):
        replica (str): The replica holding (or that held) the episode's state.
        status (EpisodeStatus): How an episode stands.
        total_reward (float):
        turns (int): Actions taken.
        steps (list[StoredStep]):
        ended_at_ms (int | None | Unset):
    """

    created_at_ms: int
    environment: str
    episode_id: str
    options: StoredEpisodeOptions
    replica: str
    status: EpisodeStatus
    total_reward: float
    turns: int
    steps: list[StoredStep]
    ended_at_ms: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at_ms = self.created_at_ms

        environment = self.environment

        episode_id = self.episode_id

        options = self.options.to_dict()

        replica = self.replica

        status: str = self.status

        total_reward = self.total_reward

        turns = self.turns

        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)

        ended_at_ms: int | None | Unset
        if isinstance(self.ended_at_ms, Unset):
            ended_at_ms = UNSET
        else:
            ended_at_ms = self.ended_at_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at_ms": created_at_ms,
                "environment": environment,
                "episode_id": episode_id,
                "options": options,
                "replica": replica,
                "status": status,
                "total_reward": total_reward,
                "turns": turns,
                "steps": steps,
            }
        )
        if ended_at_ms is not UNSET:
            field_dict["ended_at_ms"] = ended_at_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.stored_episode_options import StoredEpisodeOptions
        from ..models.stored_step import StoredStep

        d = dict(src_dict)
        created_at_ms = d.pop("created_at_ms")

        environment = d.pop("environment")

        episode_id = d.pop("episode_id")

        options = StoredEpisodeOptions.from_dict(d.pop("options"))

        replica = d.pop("replica")

        status = check_episode_status(d.pop("status"))

        total_reward = d.pop("total_reward")

        turns = d.pop("turns")

        steps = []
        _steps = d.pop("steps")
        for steps_item_data in _steps:
            steps_item = StoredStep.from_dict(steps_item_data)

            steps.append(steps_item)

        def _parse_ended_at_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ended_at_ms = _parse_ended_at_ms(d.pop("ended_at_ms", UNSET))

        episode_transcript = cls(
            created_at_ms=created_at_ms,
            environment=environment,
            episode_id=episode_id,
            options=options,
            replica=replica,
            status=status,
            total_reward=total_reward,
            turns=turns,
            steps=steps,
            ended_at_ms=ended_at_ms,
        )

        episode_transcript.additional_properties = d
        return episode_transcript

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
