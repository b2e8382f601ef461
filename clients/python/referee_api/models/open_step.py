from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="OpenStep")


@_attrs_define
class OpenStep:
    """The step being decided, between its first round and its close.

    Attributes:
        filtering (bool): Whether the step filters (the threshold applies).
        rollouts (int):
        rounds (int): Rounds decided so far.
        std_sum (float): The sum of the rollouts' group stds over the step's rounds, and the rollouts counted.
        step (int): The step number (1-based).
        threshold (float): β·EMA, fixed when the step opened; every round of the step uses it (0: keep all).
    """

    filtering: bool
    rollouts: int
    rounds: int
    std_sum: float
    step: int
    threshold: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        filtering = self.filtering

        rollouts = self.rollouts

        rounds = self.rounds

        std_sum = self.std_sum

        step = self.step

        threshold = self.threshold

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "filtering": filtering,
                "rollouts": rollouts,
                "rounds": rounds,
                "std_sum": std_sum,
                "step": step,
                "threshold": threshold,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        filtering = d.pop("filtering")

        rollouts = d.pop("rollouts")

        rounds = d.pop("rounds")

        std_sum = d.pop("std_sum")

        step = d.pop("step")

        threshold = d.pop("threshold")

        open_step = cls(
            filtering=filtering,
            rollouts=rollouts,
            rounds=rounds,
            std_sum=std_sum,
            step=step,
            threshold=threshold,
        )

        open_step.additional_properties = d
        return open_step

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
