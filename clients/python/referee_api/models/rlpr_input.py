from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rlpr_input_options import RlprInputOptions


T = TypeVar("T", bound="RlprInput")


@_attrs_define
class RlprInput:
    """An RLPR item scored from log-probs the trainer computed.

    Attributes:
        logprobs (list[float]): The policy's log-probs (natural log, temperature 1) of the reference-answer tokens of
            the substituted sequence, in order: the tokens its scoring mask selects. Empty when the
            response has no answer structure.
        response (str): The generated response, without padding.
        baseline_logprobs (list[float] | None | Unset): The log-probs of the reference-answer tokens of the no-reasoning
            baseline (prompt, then
            the reference alone), when debiasing from them.
        options (RlprInputOptions | Unset): The score reduction, format mode, debiasing, format weight, rounding and
            repetition
            penalty.
        score_a (float | None | Unset): The baseline score itself, when the trainer keeps it (RLPR computes it once,
            with the
            initial policy); instead of `baseline_logprobs`.
    """

    logprobs: list[float]
    response: str
    baseline_logprobs: list[float] | None | Unset = UNSET
    options: RlprInputOptions | Unset = UNSET
    score_a: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        logprobs = self.logprobs

        response = self.response

        baseline_logprobs: list[float] | None | Unset
        if isinstance(self.baseline_logprobs, Unset):
            baseline_logprobs = UNSET
        elif isinstance(self.baseline_logprobs, list):
            baseline_logprobs = self.baseline_logprobs

        else:
            baseline_logprobs = self.baseline_logprobs

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        score_a: float | None | Unset
        if isinstance(self.score_a, Unset):
            score_a = UNSET
        else:
            score_a = self.score_a

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "logprobs": logprobs,
                "response": response,
            }
        )
        if baseline_logprobs is not UNSET:
            field_dict["baseline_logprobs"] = baseline_logprobs
        if options is not UNSET:
            field_dict["options"] = options
        if score_a is not UNSET:
            field_dict["score_a"] = score_a

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rlpr_input_options import RlprInputOptions

        d = dict(src_dict)
        logprobs = cast(list[float], d.pop("logprobs"))

        response = d.pop("response")

        def _parse_baseline_logprobs(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                baseline_logprobs_type_0 = cast(list[float], data)

                return baseline_logprobs_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        baseline_logprobs = _parse_baseline_logprobs(d.pop("baseline_logprobs", UNSET))

        _options = d.pop("options", UNSET)
        options: RlprInputOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = RlprInputOptions.from_dict(_options)

        def _parse_score_a(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        score_a = _parse_score_a(d.pop("score_a", UNSET))

        rlpr_input = cls(
            logprobs=logprobs,
            response=response,
            baseline_logprobs=baseline_logprobs,
            options=options,
            score_a=score_a,
        )

        return rlpr_input
