from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.alarm_rates import AlarmRates
    from ..models.latency_stats import LatencyStats
    from ..models.score_histogram import ScoreHistogram
    from ..models.score_quantiles import ScoreQuantiles
    from ..models.verifier_step_statuses import VerifierStepStatuses


T = TypeVar("T", bound="VerifierStep")


@_attrs_define
class VerifierStep:
    """One verifier's items at one step.

    Attributes:
        count (int): Items scored.
        histogram (ScoreHistogram): Counts of values in equal-width bins: `edges` has one more entry than `counts`; a
            bin holds
            values from its lower edge up to, not including, its upper edge, and the last also holds its
            upper edge.
        latency (LatencyStats): The latency of a set of items, in milliseconds: the mean exact, the quantiles from a
            histogram of 8 buckets per doubling (within about 4.5%).
        max_ (float):
        mean (float): Mean score of every item.
        min_ (float):
        quantiles (ScoreQuantiles): Five quantiles of a distribution.
        rates (AlarmRates): The rates of the statuses that signal a broken verifier (`internal_error`, `timeout`) or a
            collapsed output format (`unparseable`), as fractions of the items.
        statuses (VerifierStepStatuses): Items by status.
        std (float): Population standard deviation of the scores.
        verifier (str):
        pass_rate (float | None | Unset): Successes (`correct`) over attempts (every status but `invalid_input` and
            `internal_error`); absent without attempts.
    """

    count: int
    histogram: ScoreHistogram
    latency: LatencyStats
    max_: float
    mean: float
    min_: float
    quantiles: ScoreQuantiles
    rates: AlarmRates
    statuses: VerifierStepStatuses
    std: float
    verifier: str
    pass_rate: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        histogram = self.histogram.to_dict()

        latency = self.latency.to_dict()

        max_ = self.max_

        mean = self.mean

        min_ = self.min_

        quantiles = self.quantiles.to_dict()

        rates = self.rates.to_dict()

        statuses = self.statuses.to_dict()

        std = self.std

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
                "count": count,
                "histogram": histogram,
                "latency": latency,
                "max": max_,
                "mean": mean,
                "min": min_,
                "quantiles": quantiles,
                "rates": rates,
                "statuses": statuses,
                "std": std,
                "verifier": verifier,
            }
        )
        if pass_rate is not UNSET:
            field_dict["pass_rate"] = pass_rate

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.alarm_rates import AlarmRates
        from ..models.latency_stats import LatencyStats
        from ..models.score_histogram import ScoreHistogram
        from ..models.score_quantiles import ScoreQuantiles
        from ..models.verifier_step_statuses import VerifierStepStatuses

        d = dict(src_dict)
        count = d.pop("count")

        histogram = ScoreHistogram.from_dict(d.pop("histogram"))

        latency = LatencyStats.from_dict(d.pop("latency"))

        max_ = d.pop("max")

        mean = d.pop("mean")

        min_ = d.pop("min")

        quantiles = ScoreQuantiles.from_dict(d.pop("quantiles"))

        rates = AlarmRates.from_dict(d.pop("rates"))

        statuses = VerifierStepStatuses.from_dict(d.pop("statuses"))

        std = d.pop("std")

        verifier = d.pop("verifier")

        def _parse_pass_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        pass_rate = _parse_pass_rate(d.pop("pass_rate", UNSET))

        verifier_step = cls(
            count=count,
            histogram=histogram,
            latency=latency,
            max_=max_,
            mean=mean,
            min_=min_,
            quantiles=quantiles,
            rates=rates,
            statuses=statuses,
            std=std,
            verifier=verifier,
            pass_rate=pass_rate,
        )

        verifier_step.additional_properties = d
        return verifier_step

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
