from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.interval_method import IntervalMethod, check_interval_method

if TYPE_CHECKING:
    from ..models.interval import Interval


T = TypeVar("T", bound="RateEstimate")


@_attrs_define
class RateEstimate:
    """A rate's point estimate with its 95% interval.

    Attributes:
        estimate (float): The point estimate.
        interval (Interval): A closed interval `[lower, upper]` within [0, 1] (or within [-1, 1] for Youden's J).
        method (IntervalMethod): How a rate's interval was obtained.
    """

    estimate: float
    interval: Interval
    method: IntervalMethod
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        estimate = self.estimate

        interval = self.interval.to_dict()

        method: str = self.method

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "estimate": estimate,
                "interval": interval,
                "method": method,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.interval import Interval

        d = dict(src_dict)
        estimate = d.pop("estimate")

        interval = Interval.from_dict(d.pop("interval"))

        method = check_interval_method(d.pop("method"))

        rate_estimate = cls(
            estimate=estimate,
            interval=interval,
            method=method,
        )

        rate_estimate.additional_properties = d
        return rate_estimate

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
