from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="ConfiguredRatesRho1IntervalType0")


@_attrs_define
class ConfiguredRatesRho1IntervalType0:
    """A 95% interval for rho1; it must contain the rate. Without one the rate is taken as exact.

    Attributes:
        lower (float):
        upper (float):
    """

    lower: float
    upper: float

    def to_dict(self) -> dict[str, Any]:
        lower = self.lower

        upper = self.upper

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "lower": lower,
                "upper": upper,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        lower = d.pop("lower")

        upper = d.pop("upper")

        configured_rates_rho_1_interval_type_0 = cls(
            lower=lower,
            upper=upper,
        )

        return configured_rates_rho_1_interval_type_0
