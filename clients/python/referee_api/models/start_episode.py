from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

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
        group (None | str | Unset): The group of rollouts the episode belongs to (a string or an integer).
        options (StartEpisodeOptions | Unset): The environment's options (its schema is in the listing).
        prompt_id (None | str | Unset): The prompt the episode answers (a string, or an integer taken as its decimal
            text; at
            most 256 bytes): pass rates are kept per prompt.
        run (None | str | Unset): The training run the episode is recorded in when it ends (1 to 256 bytes): one item of
            the environment, with the episode's total reward (docs/episodes.md#training-runs).
        step (int | None | Unset): The training step (0 when absent).
    """

    environment: str
    group: None | str | Unset = UNSET
    options: StartEpisodeOptions | Unset = UNSET
    prompt_id: None | str | Unset = UNSET
    run: None | str | Unset = UNSET
    step: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        environment = self.environment

        group: None | str | Unset
        if isinstance(self.group, Unset):
            group = UNSET
        else:
            group = self.group

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        prompt_id: None | str | Unset
        if isinstance(self.prompt_id, Unset):
            prompt_id = UNSET
        else:
            prompt_id = self.prompt_id

        run: None | str | Unset
        if isinstance(self.run, Unset):
            run = UNSET
        else:
            run = self.run

        step: int | None | Unset
        if isinstance(self.step, Unset):
            step = UNSET
        else:
            step = self.step

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "environment": environment,
            }
        )
        if group is not UNSET:
            field_dict["group"] = group
        if options is not UNSET:
            field_dict["options"] = options
        if prompt_id is not UNSET:
            field_dict["prompt_id"] = prompt_id
        if run is not UNSET:
            field_dict["run"] = run
        if step is not UNSET:
            field_dict["step"] = step

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.start_episode_options import StartEpisodeOptions

        d = dict(src_dict)
        environment = d.pop("environment")

        def _parse_group(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        group = _parse_group(d.pop("group", UNSET))

        _options = d.pop("options", UNSET)
        options: StartEpisodeOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = StartEpisodeOptions.from_dict(_options)

        def _parse_prompt_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        prompt_id = _parse_prompt_id(d.pop("prompt_id", UNSET))

        def _parse_run(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        run = _parse_run(d.pop("run", UNSET))

        def _parse_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        step = _parse_step(d.pop("step", UNSET))

        start_episode = cls(
            environment=environment,
            group=group,
            options=options,
            prompt_id=prompt_id,
            run=run,
            step=step,
        )

        return start_episode
