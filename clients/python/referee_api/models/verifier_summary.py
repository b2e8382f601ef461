from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.bootstrap_interval import BootstrapInterval


T = TypeVar("T", bound="VerifierSummary")


@_attrs_define
class VerifierSummary:
    """One verifier over a range of steps, with intervals.

    Attributes:
        iqm (BootstrapInterval): A point estimate with its percentile-bootstrap 95% interval.
        items (int):
        mean (BootstrapInterval): A point estimate with its percentile-bootstrap 95% interval.
        resamples (int): Bootstrap resamples drawn.
        unit (str): What one bootstrap unit is: `prompt` (the mean score of a prompt's items, when every
            item has a `prompt_id`) or `item`.
        units (int):
        verifier (str):
        pass_rate (BootstrapInterval | None | Unset):
    """

    iqm: BootstrapInterval
    items: int
    mean: BootstrapInterval
    resamples: int
    unit: str
    units: int
    verifier: str
    pass_rate: BootstrapInterval | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.bootstrap_interval import BootstrapInterval

        iqm = self.iqm.to_dict()

        items = self.items

        mean = self.mean.to_dict()

        resamples = self.resamples

        unit = self.unit

        units = self.units

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
                "items": items,
                "mean": mean,
                "resamples": resamples,
                "unit": unit,
                "units": units,
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

        items = d.pop("items")

        mean = BootstrapInterval.from_dict(d.pop("mean"))

        resamples = d.pop("resamples")

        unit = d.pop("unit")

        units = d.pop("units")

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

        verifier_summary = cls(
            iqm=iqm,
            items=items,
            mean=mean,
            resamples=resamples,
            unit=unit,
            units=units,
            verifier=verifier,
            pass_rate=pass_rate,
        )

        verifier_summary.additional_properties = d
        return verifier_summary

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
