from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="AppealRates")


@_attrs_define
class AppealRates:
    """Which share of each verdict class is sent to the stronger checker.

    Attributes:
        negatives (float): The probability that a verdict 0 is re-checked.
        positives (float): The probability that a verdict 1 is re-checked.
    """

    negatives: float
    positives: float

    def to_dict(self) -> dict[str, Any]:
        negatives = self.negatives

        positives = self.positives

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "negatives": negatives,
                "positives": positives,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        negatives = d.pop("negatives")

        positives = d.pop("positives")

        appeal_rates = cls(
            negatives=negatives,
            positives=positives,
        )

        return appeal_rates
