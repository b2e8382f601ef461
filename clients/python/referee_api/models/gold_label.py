from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="GoldLabel")


@_attrs_define
class GoldLabel:
    """One verdict of the noisy verifier next to the true label a person (or a trusted checker)
    assigned to the same response: an audit row.

        Attributes:
            gold (bool): The true label R.
            verdict (bool): The verifier's binary verdict R̃ (true = reward 1).
    """

    gold: bool
    verdict: bool

    def to_dict(self) -> dict[str, Any]:
        gold = self.gold

        verdict = self.verdict

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "gold": gold,
                "verdict": verdict,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        gold = d.pop("gold")

        verdict = d.pop("verdict")

        gold_label = cls(
            gold=gold,
            verdict=verdict,
        )

        return gold_label
