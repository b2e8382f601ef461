from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.noise_source import NoiseSource, check_noise_source

if TYPE_CHECKING:
    from ..models.rate_estimate import RateEstimate
    from ..models.verdict_tally import VerdictTally


T = TypeVar("T", bound="NoiseModel")


@_attrs_define
class NoiseModel:
    """A verifier's noise channel: ρ0 = P(verdict 1 | truly 0) and ρ1 = P(verdict 0 | truly 1), each
    with a 95% interval, Youden's J = 1 − ρ0 − ρ1 (how much signal the verdicts carry), the
    counts behind them and their source.

    Built by [`configured`](Self::configured), [`from_audit`](Self::from_audit) or
    [`from_appeals`](Self::from_appeals); turned into per-item corrections by
    [`correct`](Self::correct).

        Attributes:
            counts (VerdictTally): Counts of verdicts seen and of verdicts checked against a stronger label, split by the
                verdict: the accumulator behind audits and appeals alike.

                For appeals the server calls [`observe`](Self::observe) for every binary verdict the
                verifier returns and [`record_check`](Self::record_check) as re-checks come back, possibly
                much later; tallies from several workers or time windows combine with
                [`merge`](Self::merge). For audits every gold-labelled row is both observed and checked
                ([`record_gold`](Self::record_gold)).

                Sampling negatives and positives for re-checking at different rates is fine: the appeal
                estimator uses only the rates within each verdict class and the observed positive rate.
            rho0 (RateEstimate): A rate's point estimate with its 95% interval.
            rho1 (RateEstimate): A rate's point estimate with its 95% interval.
            source (NoiseSource): Where a noise model's rates came from.
            youden_j (RateEstimate): A rate's point estimate with its 95% interval.
    """

    counts: VerdictTally
    rho0: RateEstimate
    rho1: RateEstimate
    source: NoiseSource
    youden_j: RateEstimate
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        counts = self.counts.to_dict()

        rho0 = self.rho0.to_dict()

        rho1 = self.rho1.to_dict()

        source: str = self.source

        youden_j = self.youden_j.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "counts": counts,
                "rho0": rho0,
                "rho1": rho1,
                "source": source,
                "youden_j": youden_j,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rate_estimate import RateEstimate
        from ..models.verdict_tally import VerdictTally

        d = dict(src_dict)
        counts = VerdictTally.from_dict(d.pop("counts"))

        rho0 = RateEstimate.from_dict(d.pop("rho0"))

        rho1 = RateEstimate.from_dict(d.pop("rho1"))

        source = check_noise_source(d.pop("source"))

        youden_j = RateEstimate.from_dict(d.pop("youden_j"))

        noise_model = cls(
            counts=counts,
            rho0=rho0,
            rho1=rho1,
            source=source,
            youden_j=youden_j,
        )

        noise_model.additional_properties = d
        return noise_model

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
