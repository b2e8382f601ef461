from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

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
        input_patch (AppealSettingsInputPatchType0 | None | Unset): A JSON merge patch (RFC 7396) applied to an item's
            input before the checker sees it,
            e.g. `{"options": {"accept_rounded": true}}` to re-check `math` leniently.
    """

    checker: str
    rates: AppealRates
    input_patch: AppealSettingsInputPatchType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.appeal_settings_input_patch_type_0 import (
            AppealSettingsInputPatchType0,
        )

        checker = self.checker

        rates = self.rates.to_dict()

        input_patch: dict[str, Any] | None | Unset
        if isinstance(self.input_patch, Unset):
            input_patch = UNSET
        elif isinstance(self.input_patch, AppealSettingsInputPatchType0):
            input_patch = self.input_patch.to_dict()
        else:
            input_patch = self.input_patch

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "checker": checker,
                "rates": rates,
            }
        )
        if input_patch is not UNSET:
            field_dict["input_patch"] = input_patch

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

        appeal_settings = cls(
            checker=checker,
            rates=rates,
            input_patch=input_patch,
        )

        return appeal_settings
