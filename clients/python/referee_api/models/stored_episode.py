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


T = TypeVar("T", bound="StoredEpisode")


@_attrs_define
class StoredEpisode:
    """An episode as the database holds it.

    Attributes:
        created_at_ms (int):
        environment (str):
        episode_id (str):
        options (StoredEpisodeOptions):
        replica (str): The replica holding (or that held) the episode's state.
        status (EpisodeStatus): How an episode stands.
        total_reward (float):
        turns (int): Actions taken.
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
            }
        )
        if ended_at_ms is not UNSET:
            field_dict["ended_at_ms"] = ended_at_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.stored_episode_options import StoredEpisodeOptions

        d = dict(src_dict)
        created_at_ms = d.pop("created_at_ms")

        environment = d.pop("environment")

        episode_id = d.pop("episode_id")

        options = StoredEpisodeOptions.from_dict(d.pop("options"))

        replica = d.pop("replica")

        status = check_episode_status(d.pop("status"))

        total_reward = d.pop("total_reward")

        turns = d.pop("turns")

        def _parse_ended_at_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ended_at_ms = _parse_ended_at_ms(d.pop("ended_at_ms", UNSET))

        stored_episode = cls(
            created_at_ms=created_at_ms,
            environment=environment,
            episode_id=episode_id,
            options=options,
            replica=replica,
            status=status,
            total_reward=total_reward,
            turns=turns,
            ended_at_ms=ended_at_ms,
        )

        stored_episode.additional_properties = d
        return stored_episode

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
