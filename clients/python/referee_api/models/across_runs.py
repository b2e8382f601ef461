from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.bootstrap_interval import BootstrapInterval


T = TypeVar("T", bound="AcrossRuns")


@_attrs_define
class AcrossRuns:
    """One verifier across the runs compared: each run is one unit (its mean score, attempts and
    successes), as `rliable` aggregates over runs.

        Attributes:
            iqm (BootstrapInterval): A point estimate with its percentile-bootstrap 95% interval.
            mean (BootstrapInterval): A point estimate with its percentile-bootstrap 95% interval.
            resamples (int):
            runs (int): Runs with items of this verifier.
            verifier (str):
            pass_rate (BootstrapInterval | None | Unset):
    """

    iqm: BootstrapInterval
    mean: BootstrapInterval
    resamples: int
    runs: int
    verifier: str
    pass_rate: BootstrapInterval | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.bootstrap_interval import BootstrapInterval

        iqm = self.iqm.to_dict()

        mean = self.mean.to_dict()

        resamples = self.resamples

        runs = self.runs

        verifier = self.verifier

        pass_rate: dict[str, Any] | None | Unset
        if isinstance(self.pass_rate, Unset):
            pass_rate = UNSET
        elif isinstance(self.pass_rate, BootstrapInterval):
            pass_rate = self.pass_rate.to_dict()
        else:
            pass_rate = self.pass_rate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "iqm": iqm,
                "mean": mean,
                "resamples": resamples,
                "runs": runs,
                "verifier": verifier,
            }
        )
        if pass_rate is not UNSET:
            field_dict["pass_rate"] = pass_rate

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.bootstrap_interval import BootstrapInterval

        d = dict(src_dict)
        iqm = BootstrapInterval.from_dict(d.pop("iqm"))

        mean = BootstrapInterval.from_dict(d.pop("mean"))

        resamples = d.pop("resamples")

        runs = d.pop("runs")

        verifier = d.pop("verifier")

        def _parse_pass_rate(data: object) -> BootstrapInterval | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pass_rate_type_0 = BootstrapInterval.from_dict(data)

                return pass_rate_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BootstrapInterval | None | Unset, data)

        pass_rate = _parse_pass_rate(d.pop("pass_rate", UNSET))

        across_runs = cls(
            iqm=iqm,
            mean=mean,
            resamples=resamples,
            runs=runs,
            verifier=verifier,
            pass_rate=pass_rate,
        )

        across_runs.additional_properties = d
        return across_runs

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
