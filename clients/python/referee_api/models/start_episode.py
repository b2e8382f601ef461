from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.start_episode_options import StartEpisodeOptions


T = TypeVar("T", bound="StartEpisode")


@_attrs_define
class StartEpisode:
    """An episode to start.

    Attributes:
        environment (str): The environment's id, as `GET /v1/episode-environments` lists it.
        options (StartEpisodeOptions | Unset): The environment's options (its schema is in the listing).
    """

    environment: str
    options: StartEpisodeOptions | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        environment = self.environment

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "environment": environment,
            }
        )
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.start_episode_options import StartEpisodeOptions

        d = dict(src_dict)
        environment = d.pop("environment")

        _options = d.pop("options", UNSET)
        options: StartEpisodeOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = StartEpisodeOptions.from_dict(_options)

        start_episode = cls(
            environment=environment,
            options=options,
        )

        return start_episode
