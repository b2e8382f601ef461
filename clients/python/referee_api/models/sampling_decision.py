from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SamplingDecision")


@_attrs_define
class SamplingDecision:
    """The decision on one candidate prompt.

    Attributes:
        attempts (int):
        keep (bool):
        prompt_id (str):
        reason (str): Why, in words.
        weight (float): The prompt's sampling weight: 1 or 0 for the filters, the normalised weight for
            `difficulty`.
        pass_rate (float | None | Unset): The pass rate the decision read; absent for a prompt never scored.
    """

    attempts: int
    keep: bool
    prompt_id: str
    reason: str
    weight: float
    pass_rate: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        keep = self.keep

        prompt_id = self.prompt_id

        reason = self.reason

        weight = self.weight

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
                "keep": keep,
                "prompt_id": prompt_id,
                "reason": reason,
                "weight": weight,
            }
        )
        if pass_rate is not UNSET:
            field_dict["pass_rate"] = pass_rate

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        keep = d.pop("keep")

        prompt_id = d.pop("prompt_id")

        reason = d.pop("reason")

        weight = d.pop("weight")

        def _parse_pass_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        pass_rate = _parse_pass_rate(d.pop("pass_rate", UNSET))

        sampling_decision = cls(
            attempts=attempts,
            keep=keep,
            prompt_id=prompt_id,
            reason=reason,
            weight=weight,
            pass_rate=pass_rate,
        )

        sampling_decision.additional_properties = d
        return sampling_decision

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
