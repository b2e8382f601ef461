from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.group_answer import GroupAnswer


T = TypeVar("T", bound="FilterAnswer")


@_attrs_define
class FilterAnswer:
    """The answer of `POST /v1/reward-models/rlpr/filter`.

    Attributes:
        groups (list[GroupAnswer]):
        run (str):
        step (int): The step decided (1-based).
        threshold (float): β·EMA applied to every round of this step; 0 before filtering starts.
        closed (bool | Unset): Whether the step was closed by this request (its mean std entered the moving average).
        ema (float | None | Unset): The moving average after this request; null during warm-up.
        mean_std (float | None | Unset): The step's mean std over the rollouts of its rounds so far (what enters the
            moving
            average when the step closes); null when no group had a std.
        round_ (int | Unset): The round decided within the step (1-based).
    """

    groups: list[GroupAnswer]
    run: str
    step: int
    threshold: float
    closed: bool | Unset = UNSET
    ema: float | None | Unset = UNSET
    mean_std: float | None | Unset = UNSET
    round_: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        groups = []
        for groups_item_data in self.groups:
            groups_item = groups_item_data.to_dict()
            groups.append(groups_item)

        run = self.run

        step = self.step

        threshold = self.threshold

        closed = self.closed

        ema: float | None | Unset
        if isinstance(self.ema, Unset):
            ema = UNSET
        else:
            ema = self.ema

        mean_std: float | None | Unset
        if isinstance(self.mean_std, Unset):
            mean_std = UNSET
        else:
            mean_std = self.mean_std

        round_ = self.round_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "groups": groups,
                "run": run,
                "step": step,
                "threshold": threshold,
            }
        )
        if closed is not UNSET:
            field_dict["closed"] = closed
        if ema is not UNSET:
            field_dict["ema"] = ema
        if mean_std is not UNSET:
            field_dict["mean_std"] = mean_std
        if round_ is not UNSET:
            field_dict["round"] = round_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.group_answer import GroupAnswer

        d = dict(src_dict)
        groups = []
        _groups = d.pop("groups")
        for groups_item_data in _groups:
            groups_item = GroupAnswer.from_dict(groups_item_data)

            groups.append(groups_item)

        run = d.pop("run")

        step = d.pop("step")

        threshold = d.pop("threshold")

        closed = d.pop("closed", UNSET)

        def _parse_ema(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        ema = _parse_ema(d.pop("ema", UNSET))

        def _parse_mean_std(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        mean_std = _parse_mean_std(d.pop("mean_std", UNSET))

        round_ = d.pop("round", UNSET)

        filter_answer = cls(
            groups=groups,
            run=run,
            step=step,
            threshold=threshold,
            closed=closed,
            ema=ema,
            mean_std=mean_std,
            round_=round_,
        )

        filter_answer.additional_properties = d
        return filter_answer

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
