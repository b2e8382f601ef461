from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.open_step import OpenStep


T = TypeVar("T", bound="StdFilterState")


@_attrs_define
class StdFilterState:
    """What a training run's filter remembers between steps.

    Attributes:
        step (int): Steps closed so far.
        warmup_steps (int):
        warmup_sum (float): The sum and number of warm-up steps' mean stds.
        ema (float | None | Unset): The moving average, once filtering has started.
        open_ (None | OpenStep | Unset):
    """

    step: int
    warmup_steps: int
    warmup_sum: float
    ema: float | None | Unset = UNSET
    open_: None | OpenStep | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.open_step import OpenStep

        step = self.step

        warmup_steps = self.warmup_steps

        warmup_sum = self.warmup_sum

        ema: float | None | Unset
        if isinstance(self.ema, Unset):
            ema = UNSET
        else:
            ema = self.ema

        open_: dict[str, Any] | None | Unset
        if isinstance(self.open_, Unset):
            open_ = UNSET
        elif isinstance(self.open_, OpenStep):
            open_ = self.open_.to_dict()
        else:
            open_ = self.open_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "step": step,
                "warmup_steps": warmup_steps,
                "warmup_sum": warmup_sum,
            }
        )
        if ema is not UNSET:
            field_dict["ema"] = ema
        if open_ is not UNSET:
            field_dict["open"] = open_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.open_step import OpenStep

        d = dict(src_dict)
        step = d.pop("step")

        warmup_steps = d.pop("warmup_steps")

        warmup_sum = d.pop("warmup_sum")

        def _parse_ema(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        ema = _parse_ema(d.pop("ema", UNSET))

        def _parse_open_(data: object) -> None | OpenStep | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                open_type_0 = OpenStep.from_dict(data)

                return open_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OpenStep | Unset, data)

        open_ = _parse_open_(d.pop("open", UNSET))

        std_filter_state = cls(
            step=step,
            warmup_steps=warmup_steps,
            warmup_sum=warmup_sum,
            ema=ema,
            open_=open_,
        )

        std_filter_state.additional_properties = d
        return std_filter_state

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
