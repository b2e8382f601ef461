from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="RoundedFigures")


@_attrs_define
class RoundedFigures:
    """How precise a rounded decimal must be to be credited.

    Attributes:
        significant_figures (int): The fewest significant figures the decimal must state (leading zeros do not count):
            with 3, `3.14` may answer `\\pi` but `3.1` may not. 0 counts as 1.
    """

    significant_figures: int

    def to_dict(self) -> dict[str, Any]:
        significant_figures = self.significant_figures

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "significant_figures": significant_figures,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        significant_figures = d.pop("significant_figures")

        rounded_figures = cls(
            significant_figures=significant_figures,
        )

        return rounded_figures
