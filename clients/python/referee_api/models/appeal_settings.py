from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.appeal_rates import AppealRates
    from ..models.appeal_settings_input_patch_type_0 import (
        AppealSettingsInputPatchType0,
    )


T = TypeVar("T", bound="AppealSettings")


@_attrs_define
class AppealSettings:
    """How verdicts are appealed.

    Attributes:
        checker (str): The stronger checker: the id of a registered verifier.
        rates (AppealRates): Which share of each verdict class is sent to the stronger checker.
        fixed_rho0 (float | None | Unset): Take ρ0 as this value instead of estimating it, and estimate only ρ1 from re-
            checked
            verdicts 0 (Cai et al.'s set-up: 0 for a rule-based verifier assumed never to pass a
            wrong answer). Required when `rates.positives` is 0. A verifier that does pass wrong
            answers gets a ρ1 that is too low and a backward reward that is too high.
        input_patch (AppealSettingsInputPatchType0 | None | Unset): A JSON merge patch (RFC 7396) applied to an item's
            input before the checker sees it,
            e.g. `{"options": {"accept_rounded": true}}` to re-check `math` leniently.
        overturn (bool | Unset): Re-check the sampled items before answering, and report the checker's verdict as their
            reward: `score` becomes the checker's 0 or 1 and `details.reward.appeal` says whether it
            overturned the verifier. The sampled items wait for the checker (under
            `noise.appeal_timeout_ms` and the request's deadline).
    """

    checker: str
    rates: AppealRates
    fixed_rho0: float | None | Unset = UNSET
    input_patch: AppealSettingsInputPatchType0 | None | Unset = UNSET
    overturn: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.appeal_settings_input_patch_type_0 import (
            AppealSettingsInputPatchType0,
        )

        checker = self.checker

        rates = self.rates.to_dict()

        fixed_rho0: float | None | Unset
        if isinstance(self.fixed_rho0, Unset):
            fixed_rho0 = UNSET
        else:
            fixed_rho0 = self.fixed_rho0

        input_patch: dict[str, Any] | None | Unset
        if isinstance(self.input_patch, Unset):
            input_patch = UNSET
        elif isinstance(self.input_patch, AppealSettingsInputPatchType0):
            input_patch = self.input_patch.to_dict()
        else:
            input_patch = self.input_patch

        overturn = self.overturn

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "checker": checker,
                "rates": rates,
            }
        )
        if fixed_rho0 is not UNSET:
            field_dict["fixed_rho0"] = fixed_rho0
        if input_patch is not UNSET:
            field_dict["input_patch"] = input_patch
        if overturn is not UNSET:
            field_dict["overturn"] = overturn

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.appeal_rates import AppealRates
        from ..models.appeal_settings_input_patch_type_0 import (
            AppealSettingsInputPatchType0,
        )

        d = dict(src_dict)
        checker = d.pop("checker")

        rates = AppealRates.from_dict(d.pop("rates"))

        def _parse_fixed_rho0(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        fixed_rho0 = _parse_fixed_rho0(d.pop("fixed_rho0", UNSET))

        def _parse_input_patch(
            data: object,
        ) -> AppealSettingsInputPatchType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                input_patch_type_0 = AppealSettingsInputPatchType0.from_dict(data)

                return input_patch_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AppealSettingsInputPatchType0 | None | Unset, data)

        input_patch = _parse_input_patch(d.pop("input_patch", UNSET))

        overturn = d.pop("overturn", UNSET)

        appeal_settings = cls(
            checker=checker,
            rates=rates,
            fixed_rho0=fixed_rho0,
            input_patch=input_patch,
            overturn=overturn,
        )

        return appeal_settings
