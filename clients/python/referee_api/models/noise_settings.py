from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.noise_source import NoiseSource, check_noise_source
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.appeal_settings import AppealSettings
    from ..models.configured_rates import ConfiguredRates


T = TypeVar("T", bound="NoiseSettings")


@_attrs_define
class NoiseSettings:
    """What a person sets for one noise model: the body of `PUT /v1/noise/{verifier}`.

    Attributes:
        appeal (AppealSettings | None | Unset):
        configured (ConfiguredRates | None | Unset):
        use (NoiseSource | None | Unset):
    """

    appeal: AppealSettings | None | Unset = UNSET
    configured: ConfiguredRates | None | Unset = UNSET
    use: NoiseSource | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.appeal_settings import AppealSettings
        from ..models.configured_rates import ConfiguredRates

        appeal: dict[str, Any] | None | Unset
        if isinstance(self.appeal, Unset):
            appeal = UNSET
        elif isinstance(self.appeal, AppealSettings):
            appeal = self.appeal.to_dict()
        else:
            appeal = self.appeal

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

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if appeal is not UNSET:
            field_dict["appeal"] = appeal
        if configured is not UNSET:
            field_dict["configured"] = configured
        if use is not UNSET:
            field_dict["use"] = use

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.appeal_settings import AppealSettings
        from ..models.configured_rates import ConfiguredRates

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

        noise_settings = cls(
            appeal=appeal,
            configured=configured,
            use=use,
        )

        return noise_settings
