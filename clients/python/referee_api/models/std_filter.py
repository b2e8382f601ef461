from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.filter_single_rollout import (
    FilterSingleRollout,
    check_filter_single_rollout,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="StdFilter")


@_attrs_define
class StdFilter:
    """The filter's settings. The defaults are the reference scripts' for Qwen.

    Attributes:
        beta (float | Unset): β: a group is kept when its std is at least β·EMA (0.5 Qwen, 0.9 Llama, 1.0 Gemma).
            Default: 0.5.
        ema_start_step (int | Unset): The first step (1-based) whose mean std enters the warm-up average. Default: 6.
        filter_start_step (int | Unset): The first step that filters, not before `ema_start_step`; the EMA starts from
            the
            warm-up average then. Default: 11.
        ratio (float | Unset): The EMA's weight on its previous value, in [0, 1). Default: 0.99.
        single_rollout (FilterSingleRollout | Unset): What a group of a single rollout counts as.
    """

    beta: float | Unset = 0.5
    ema_start_step: int | Unset = 6
    filter_start_step: int | Unset = 11
    ratio: float | Unset = 0.99
    single_rollout: FilterSingleRollout | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        beta = self.beta

        ema_start_step = self.ema_start_step

        filter_start_step = self.filter_start_step

        ratio = self.ratio

        single_rollout: str | Unset = UNSET
        if not isinstance(self.single_rollout, Unset):
            single_rollout = self.single_rollout

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if beta is not UNSET:
            field_dict["beta"] = beta
        if ema_start_step is not UNSET:
            field_dict["ema_start_step"] = ema_start_step
        if filter_start_step is not UNSET:
            field_dict["filter_start_step"] = filter_start_step
        if ratio is not UNSET:
            field_dict["ratio"] = ratio
        if single_rollout is not UNSET:
            field_dict["single_rollout"] = single_rollout

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        beta = d.pop("beta", UNSET)

        ema_start_step = d.pop("ema_start_step", UNSET)

        filter_start_step = d.pop("filter_start_step", UNSET)

        ratio = d.pop("ratio", UNSET)

        _single_rollout = d.pop("single_rollout", UNSET)
        single_rollout: FilterSingleRollout | Unset
        if isinstance(_single_rollout, Unset):
            single_rollout = UNSET
        else:
            single_rollout = check_filter_single_rollout(_single_rollout)

        std_filter = cls(
            beta=beta,
            ema_start_step=ema_start_step,
            filter_start_step=filter_start_step,
            ratio=ratio,
            single_rollout=single_rollout,
        )

        return std_filter
