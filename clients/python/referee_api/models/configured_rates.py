from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.configured_rates_rho_0_interval_type_0 import (
        ConfiguredRatesRho0IntervalType0,
    )
    from ..models.configured_rates_rho_1_interval_type_0 import (
        ConfiguredRatesRho1IntervalType0,
    )


T = TypeVar("T", bound="ConfiguredRates")


@_attrs_define
class ConfiguredRates:
    """Rates set by hand: the body of a `PUT` on a verifier's noise model.

    Attributes:
        rho0 (float): ρ0, the false-positive rate P(verdict 1 | truly 0).
        rho1 (float): ρ1, the false-negative rate P(verdict 0 | truly 1).
        rho0_interval (ConfiguredRatesRho0IntervalType0 | None | Unset): A 95% interval for rho0; it must contain the
            rate. Without one the rate is taken as exact.
        rho1_interval (ConfiguredRatesRho1IntervalType0 | None | Unset): A 95% interval for rho1; it must contain the
            rate. Without one the rate is taken as exact.
    """

    rho0: float
    rho1: float
    rho0_interval: ConfiguredRatesRho0IntervalType0 | None | Unset = UNSET
    rho1_interval: ConfiguredRatesRho1IntervalType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.configured_rates_rho_0_interval_type_0 import (
            ConfiguredRatesRho0IntervalType0,
        )
        from ..models.configured_rates_rho_1_interval_type_0 import (
            ConfiguredRatesRho1IntervalType0,
        )

        rho0 = self.rho0

        rho1 = self.rho1

        rho0_interval: dict[str, Any] | None | Unset
        if isinstance(self.rho0_interval, Unset):
            rho0_interval = UNSET
        elif isinstance(self.rho0_interval, ConfiguredRatesRho0IntervalType0):
            rho0_interval = self.rho0_interval.to_dict()
        else:
            rho0_interval = self.rho0_interval

        rho1_interval: dict[str, Any] | None | Unset
        if isinstance(self.rho1_interval, Unset):
            rho1_interval = UNSET
        elif isinstance(self.rho1_interval, ConfiguredRatesRho1IntervalType0):
            rho1_interval = self.rho1_interval.to_dict()
        else:
            rho1_interval = self.rho1_interval

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "rho0": rho0,
                "rho1": rho1,
            }
        )
        if rho0_interval is not UNSET:
            field_dict["rho0_interval"] = rho0_interval
        if rho1_interval is not UNSET:
            field_dict["rho1_interval"] = rho1_interval

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.configured_rates_rho_0_interval_type_0 import (
            ConfiguredRatesRho0IntervalType0,
        )
        from ..models.configured_rates_rho_1_interval_type_0 import (
            ConfiguredRatesRho1IntervalType0,
        )

        d = dict(src_dict)
        rho0 = d.pop("rho0")

        rho1 = d.pop("rho1")

        def _parse_rho0_interval(
            data: object,
        ) -> ConfiguredRatesRho0IntervalType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rho0_interval_type_0 = ConfiguredRatesRho0IntervalType0.from_dict(data)

                return rho0_interval_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConfiguredRatesRho0IntervalType0 | None | Unset, data)

        rho0_interval = _parse_rho0_interval(d.pop("rho0_interval", UNSET))

        def _parse_rho1_interval(
            data: object,
        ) -> ConfiguredRatesRho1IntervalType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rho1_interval_type_0 = ConfiguredRatesRho1IntervalType0.from_dict(data)

                return rho1_interval_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConfiguredRatesRho1IntervalType0 | None | Unset, data)

        rho1_interval = _parse_rho1_interval(d.pop("rho1_interval", UNSET))

        configured_rates = cls(
            rho0=rho0,
            rho1=rho1,
            rho0_interval=rho0_interval,
            rho1_interval=rho1_interval,
        )

        return configured_rates
