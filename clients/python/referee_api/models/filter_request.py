from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.filter_group import FilterGroup
    from ..models.std_filter import StdFilter


T = TypeVar("T", bound="FilterRequest")


@_attrs_define
class FilterRequest:
    """The body of `POST /v1/reward-models/rlpr/filter`.

    Attributes:
        groups (list[FilterGroup]): The step's groups.
        run (str): The training run (1 to 256 bytes): each run has its own moving average.
        settings (None | StdFilter | Unset):
        step (int | None | Unset): The step being decided (1-based). When given, it must be the run's next step, or its
            last one to have that answer again (a retry); when absent, the next step.
    """

    groups: list[FilterGroup]
    run: str
    settings: None | StdFilter | Unset = UNSET
    step: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.std_filter import StdFilter

        groups = []
        for groups_item_data in self.groups:
            groups_item = groups_item_data.to_dict()
            groups.append(groups_item)

        run = self.run

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
            settings=settings,
            step=step,
        )

        return filter_request
