from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.binomial_interval import BinomialInterval, check_binomial_interval
from ..models.noise_source import NoiseSource, check_noise_source
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.appeal_settings import AppealSettings
    from ..models.configured_rates import ConfiguredRates
    from ..models.count_window_type_0 import CountWindowType0
    from ..models.count_window_type_1 import CountWindowType1
    from ..models.count_window_type_2 import CountWindowType2


T = TypeVar("T", bound="NoiseSettings")


@_attrs_define
class NoiseSettings:
    """What a person sets for one noise model: the body of `PUT /v1/noise/{verifier}`.

    Attributes:
        appeal (AppealSettings | None | Unset):
        audit_interval (BinomialInterval | None | Unset):
        configured (ConfiguredRates | None | Unset):
        use (NoiseSource | None | Unset):
        window (CountWindowType0 | CountWindowType1 | CountWindowType2 | None | Unset):
    """

    appeal: AppealSettings | None | Unset = UNSET
    audit_interval: BinomialInterval | None | Unset = UNSET
    configured: ConfiguredRates | None | Unset = UNSET
    use: NoiseSource | None | Unset = UNSET
    window: CountWindowType0 | CountWindowType1 | CountWindowType2 | None | Unset = (
        UNSET
    )

    def to_dict(self) -> dict[str, Any]:
        from ..models.appeal_settings import AppealSettings
        from ..models.configured_rates import ConfiguredRates
        from ..models.count_window_type_0 import CountWindowType0
        from ..models.count_window_type_1 import CountWindowType1
        from ..models.count_window_type_2 import CountWindowType2

        appeal: dict[str, Any] | None | Unset
        if isinstance(self.appeal, Unset):
            appeal = UNSET
        elif isinstance(self.appeal, AppealSettings):
            appeal = self.appeal.to_dict()
        else:
            appeal = self.appeal

        audit_interval: None | str | Unset
        if isinstance(self.audit_interval, Unset):
            audit_interval = UNSET
        elif isinstance(self.audit_interval, str):
            audit_interval = self.audit_interval
        else:
            audit_interval = self.audit_interval

        configured: dict[str, Any] | None | Unset
        if isinstance(self.configured, Unset):
            configured = UNSET
        elif isinstance(self.configured, ConfiguredRates):
            configured = self.configured.to_dict()
        else:
            configured = self.configured

        use: None | str | Unset
        if isinstance(self.use, Unset):
            use = UNSET
        elif isinstance(self.use, str):
            use = self.use
        else:
            use = self.use

        window: dict[str, Any] | None | Unset
        if isinstance(self.window, Unset):
            window = UNSET
        elif (
            isinstance(self.window, CountWindowType0)
            or isinstance(self.window, CountWindowType1)
            or isinstance(self.window, CountWindowType2)
        ):
            window = self.window.to_dict()
        else:
            window = self.window

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if appeal is not UNSET:
            field_dict["appeal"] = appeal
        if audit_interval is not UNSET:
            field_dict["audit_interval"] = audit_interval
        if configured is not UNSET:
            field_dict["configured"] = configured
        if use is not UNSET:
            field_dict["use"] = use
        if window is not UNSET:
            field_dict["window"] = window

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.appeal_settings import AppealSettings
        from ..models.configured_rates import ConfiguredRates
        from ..models.count_window_type_0 import CountWindowType0
        from ..models.count_window_type_1 import CountWindowType1
        from ..models.count_window_type_2 import CountWindowType2

        d = dict(src_dict)

        def _parse_appeal(data: object) -> AppealSettings | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                appeal_type_0 = AppealSettings.from_dict(data)

                return appeal_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AppealSettings | None | Unset, data)

        appeal = _parse_appeal(d.pop("appeal", UNSET))

        def _parse_audit_interval(data: object) -> BinomialInterval | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                audit_interval_type_0 = check_binomial_interval(data)

                return audit_interval_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BinomialInterval | None | Unset, data)

        audit_interval = _parse_audit_interval(d.pop("audit_interval", UNSET))

        def _parse_configured(data: object) -> ConfiguredRates | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                configured_type_0 = ConfiguredRates.from_dict(data)

                return configured_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConfiguredRates | None | Unset, data)

        configured = _parse_configured(d.pop("configured", UNSET))

        def _parse_use(data: object) -> NoiseSource | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                use_type_0 = check_noise_source(data)

                return use_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NoiseSource | None | Unset, data)

        use = _parse_use(d.pop("use", UNSET))

        def _parse_window(
            data: object,
        ) -> CountWindowType0 | CountWindowType1 | CountWindowType2 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_count_window_type_0 = CountWindowType0.from_dict(data)

                return componentsschemas_count_window_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_count_window_type_1 = CountWindowType1.from_dict(data)

                return componentsschemas_count_window_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_count_window_type_2 = CountWindowType2.from_dict(data)

                return componentsschemas_count_window_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                CountWindowType0 | CountWindowType1 | CountWindowType2 | None | Unset,
                data,
            )

        window = _parse_window(d.pop("window", UNSET))

        noise_settings = cls(
            appeal=appeal,
            audit_interval=audit_interval,
            configured=configured,
            use=use,
            window=window,
        )

        return noise_settings
