from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="Interval")


@_attrs_define
class Interval:
    """A closed interval `[lower, upper]` within [0, 1] (or within [-1, 1] for Youden's J).

    Attributes:
        lower (float): The lower end.
        upper (float): The upper end.
    """

    lower: float
    upper: float

    def to_dict(self) -> dict[str, Any]:
        lower = self.lower

        upper = self.upper

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "lower": lower,
                "upper": upper,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        lower = d.pop("lower")

        upper = d.pop("upper")

        interval = cls(
            lower=lower,
            upper=upper,
        )

        return interval
