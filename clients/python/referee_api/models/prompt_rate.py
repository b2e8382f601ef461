from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PromptRate")


@_attrs_define
class PromptRate:
    """A prompt's pass rate as the store and a decay give it.

    Attributes:
        attempts (int): Every attempt and success recorded, whatever the decay.
        last_attempts (int):
        last_step (int): The last step the prompt was scored at, with its attempts and successes there (its last
            group: what DAPO's dynamic sampling looks at).
        last_successes (int):
        mean_score (float): Mean score of the attempts.
        prompt_id (str):
        successes (int):
        weighted_attempts (float): Attempts and successes weighted by the decay.
        weighted_successes (float):
        pass_rate (float | None | Unset): `weighted_successes / weighted_attempts`; absent when no attempt has weight.
    """

    attempts: int
    last_attempts: int
    last_step: int
    last_successes: int
    mean_score: float
    prompt_id: str
    successes: int
    weighted_attempts: float
    weighted_successes: float
    pass_rate: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        last_attempts = self.last_attempts

        last_step = self.last_step

        last_successes = self.last_successes

        mean_score = self.mean_score

        prompt_id = self.prompt_id

        successes = self.successes

        weighted_attempts = self.weighted_attempts

        weighted_successes = self.weighted_successes

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
                "last_attempts": last_attempts,
                "last_step": last_step,
                "last_successes": last_successes,
                "mean_score": mean_score,
                "prompt_id": prompt_id,
                "successes": successes,
                "weighted_attempts": weighted_attempts,
                "weighted_successes": weighted_successes,
            }
        )
        if pass_rate is not UNSET:
            field_dict["pass_rate"] = pass_rate

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        last_attempts = d.pop("last_attempts")

        last_step = d.pop("last_step")

        last_successes = d.pop("last_successes")

        mean_score = d.pop("mean_score")

        prompt_id = d.pop("prompt_id")

        successes = d.pop("successes")

        weighted_attempts = d.pop("weighted_attempts")

        weighted_successes = d.pop("weighted_successes")

        def _parse_pass_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        pass_rate = _parse_pass_rate(d.pop("pass_rate", UNSET))

        prompt_rate = cls(
            attempts=attempts,
            last_attempts=last_attempts,
            last_step=last_step,
            last_successes=last_successes,
            mean_score=mean_score,
            prompt_id=prompt_id,
            successes=successes,
            weighted_attempts=weighted_attempts,
            weighted_successes=weighted_successes,
            pass_rate=pass_rate,
        )

        prompt_rate.additional_properties = d
        return prompt_rate

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
