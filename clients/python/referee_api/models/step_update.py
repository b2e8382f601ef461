from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="StepUpdate")


@_attrs_define
class StepUpdate:
    """The trainer's current step: the body of `PUT /v1/noise/{verifier}/step`.

    Attributes:
        step (int): The step now under way (e.g. verl's `global_steps`). New counts go to its bucket, and
            windows count back from it. Steps only move forward: a smaller value changes nothing.
    """

    step: int

    def to_dict(self) -> dict[str, Any]:
        step = self.step

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "step": step,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        step = d.pop("step")

        step_update = cls(
            step=step,
        )

        return step_update
