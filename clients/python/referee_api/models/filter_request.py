from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.filter_group import FilterGroup
    from ..models.std_filter import StdFilter


T = TypeVar("T", bound="FilterRequest")


@_attrs_define
class FilterRequest:
    """The body of `POST /v1/reward-models/rlpr/filter`: one generation round of a training step.

    Attributes:
        groups (list[FilterGroup]): The round's groups (empty to close a step without another round).
        run (str): The training run (1 to 256 bytes): each run has its own moving average.
        close (bool | None | Unset): Whether this round is the step's last (default true): the step's mean std over all
            its
            rounds then moves the moving average. With `false` the step stays open for more rounds
            until a round that closes it, or round 1 of the next step, which closes it first.
        round_ (int | None | Unset): The generation round within the step (1-based, default 1). Every round of a step is
            decided against the threshold fixed at its first round.
        settings (None | StdFilter | Unset):
        step (int | None | Unset): The step being decided (1-based): the open step, the one after it, or the last one
            answered (a retry). When absent, round 1 opens the next step and a later round continues
            the open one.
    """

    groups: list[FilterGroup]
    run: str
    close: bool | None | Unset = UNSET
    round_: int | None | Unset = UNSET
    settings: None | StdFilter | Unset = UNSET
    step: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.std_filter import StdFilter

        groups = []
        for groups_item_data in self.groups:
            groups_item = groups_item_data.to_dict()
            groups.append(groups_item)

        run = self.run

        close: bool | None | Unset
        if isinstance(self.close, Unset):
            close = UNSET
        else:
            close = self.close

        round_: int | None | Unset
        if isinstance(self.round_, Unset):
            round_ = UNSET
        else:
            round_ = self.round_

        settings: dict[str, Any] | None | Unset
        if isinstance(self.settings, Unset):
            settings = UNSET
        elif isinstance(self.settings, StdFilter):
            settings = self.settings.to_dict()
        else:
            settings = self.settings

        step: int | None | Unset
        if isinstance(self.step, Unset):
            step = UNSET
        else:
            step = self.step

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "groups": groups,
                "run": run,
            }
        )
        if close is not UNSET:
            field_dict["close"] = close
        if round_ is not UNSET:
            field_dict["round"] = round_
        if settings is not UNSET:
            field_dict["settings"] = settings
        if step is not UNSET:
            field_dict["step"] = step

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filter_group import FilterGroup
        from ..models.std_filter import StdFilter

        d = dict(src_dict)
        groups = []
        _groups = d.pop("groups")
        for groups_item_data in _groups:
            groups_item = FilterGroup.from_dict(groups_item_data)

            groups.append(groups_item)

        run = d.pop("run")

        def _parse_close(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        close = _parse_close(d.pop("close", UNSET))

        def _parse_round_(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        round_ = _parse_round_(d.pop("round", UNSET))

        def _parse_settings(data: object) -> None | StdFilter | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                settings_type_0 = StdFilter.from_dict(data)

                return settings_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StdFilter | Unset, data)

        settings = _parse_settings(d.pop("settings", UNSET))

        def _parse_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        step = _parse_step(d.pop("step", UNSET))

        filter_request = cls(
            groups=groups,
            run=run,
            close=close,
            round_=round_,
            settings=settings,
            step=step,
        )

        return filter_request
