from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="VerifierTotals")


@_attrs_define
class VerifierTotals:
    """One verifier's items in one run over the steps compared.

    Attributes:
        attempts (int):
        items (int):
        mean (float): Mean score of the items.
        successes (int):
        verifier (str):
        pass_rate (float | None | Unset): Successes over attempts; absent without attempts.
    """

    attempts: int
    items: int
    mean: float
    successes: int
    verifier: str
    pass_rate: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        items = self.items

        mean = self.mean

        successes = self.successes

        verifier = self.verifier

        pass_rate: float | None | Unset
        if isinstance(self.pass_rate, Unset):
            pass_rate = UNSET
        else:
            pass_rate = self.pass_rate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "items": items,
                "mean": mean,
                "successes": successes,
                "verifier": verifier,
            }
        )
        if pass_rate is not UNSET:
            field_dict["pass_rate"] = pass_rate

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        items = d.pop("items")

        mean = d.pop("mean")

        successes = d.pop("successes")

        verifier = d.pop("verifier")

        def _parse_pass_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        pass_rate = _parse_pass_rate(d.pop("pass_rate", UNSET))

        verifier_totals = cls(
            attempts=attempts,
            items=items,
            mean=mean,
            successes=successes,
            verifier=verifier,
            pass_rate=pass_rate,
        )

        verifier_totals.additional_properties = d
        return verifier_totals

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
