from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.extraction_mode import ExtractionMode, check_extraction_mode
from ..models.percent_policy import PercentPolicy, check_percent_policy
from ..models.unit_policy import UnitPolicy, check_unit_policy
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rounded_figures import RoundedFigures


T = TypeVar("T", bound="MathOptions")


@_attrs_define
class MathOptions:
    """Options of one math item; every field has a default.

    Attributes:
        accept_rounded (bool | RoundedFigures | Unset): Approximate acceptance of a rounded decimal for an exact value:
            `false` (the default),
            `true` (at least [`DEFAULT_ROUNDED_FIGURES`] significant figures) or
            `{"significant_figures": n}`.
        allow_assignment (bool | Unset): Whether an assignment `x = 3` matches the value `3` (and `k = 1/3` matches
            `1/3`). Default: True.
        allow_multiple_boxed (bool | Unset): Whether several boxed answers next to each other form one list answer
            (`\\boxed{1}`
            and `\\boxed{2}` answer `1, 2`). When false, only boxes that all restate the reference
            are credited. Either way, several boxes that are neither the list the reference asks for
            nor restatements of one answer are a hedge and score 0. Default: True.
        angle_conversion (bool | Unset): Whether an answer in degrees may match one in radians (`\\pi` for
            `180^\\circ`). Off by
            default: a bare `\\pi` against `180^\\circ` is incorrect. When both sides state their unit
            (`60^\\circ` against `\\frac{\\pi}{3}\\text{ rad}`), they are converted regardless. Default: False.
        extraction (ExtractionMode | Unset): Where the answer is looked for in the response.
        percent (PercentPolicy | Unset): How `x%` compares with a plain number.
        relative_tolerance (float | Unset): Relative tolerance for expressions compared numerically when the *reference*
            is written
            with decimals (`\\frac{9.5}{3.14159}`). A response's decimals never widen the comparison:
            against an exact reference only the exact value is credited. Default: 1e-09.
        units (UnitPolicy | Unset): Whether units written after a number must match the reference's.
    """

    accept_rounded: bool | RoundedFigures | Unset = UNSET
    allow_assignment: bool | Unset = True
    allow_multiple_boxed: bool | Unset = True
    angle_conversion: bool | Unset = False
    extraction: ExtractionMode | Unset = UNSET
    percent: PercentPolicy | Unset = UNSET
    relative_tolerance: float | Unset = 1e-09
    units: UnitPolicy | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.rounded_figures import RoundedFigures

        accept_rounded: bool | dict[str, Any] | Unset
        if isinstance(self.accept_rounded, Unset):
            accept_rounded = UNSET
        elif isinstance(self.accept_rounded, RoundedFigures):
            accept_rounded = self.accept_rounded.to_dict()
        else:
            accept_rounded = self.accept_rounded

        allow_assignment = self.allow_assignment

        allow_multiple_boxed = self.allow_multiple_boxed

        angle_conversion = self.angle_conversion

        extraction: str | Unset = UNSET
        if not isinstance(self.extraction, Unset):
            extraction = self.extraction

        percent: str | Unset = UNSET
        if not isinstance(self.percent, Unset):
            percent = self.percent

        relative_tolerance = self.relative_tolerance

        units: str | Unset = UNSET
        if not isinstance(self.units, Unset):
            units = self.units

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if accept_rounded is not UNSET:
            field_dict["accept_rounded"] = accept_rounded
        if allow_assignment is not UNSET:
            field_dict["allow_assignment"] = allow_assignment
        if allow_multiple_boxed is not UNSET:
            field_dict["allow_multiple_boxed"] = allow_multiple_boxed
        if angle_conversion is not UNSET:
            field_dict["angle_conversion"] = angle_conversion
        if extraction is not UNSET:
            field_dict["extraction"] = extraction
        if percent is not UNSET:
            field_dict["percent"] = percent
        if relative_tolerance is not UNSET:
            field_dict["relative_tolerance"] = relative_tolerance
        if units is not UNSET:
            field_dict["units"] = units

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rounded_figures import RoundedFigures

        d = dict(src_dict)

        def _parse_accept_rounded(data: object) -> bool | RoundedFigures | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_accept_rounded_type_1 = RoundedFigures.from_dict(data)

                return componentsschemas_accept_rounded_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(bool | RoundedFigures | Unset, data)

        accept_rounded = _parse_accept_rounded(d.pop("accept_rounded", UNSET))

        allow_assignment = d.pop("allow_assignment", UNSET)

        allow_multiple_boxed = d.pop("allow_multiple_boxed", UNSET)

        angle_conversion = d.pop("angle_conversion", UNSET)

        _extraction = d.pop("extraction", UNSET)
        extraction: ExtractionMode | Unset
        if isinstance(_extraction, Unset):
            extraction = UNSET
        else:
            extraction = check_extraction_mode(_extraction)

        _percent = d.pop("percent", UNSET)
        percent: PercentPolicy | Unset
        if isinstance(_percent, Unset):
            percent = UNSET
        else:
            percent = check_percent_policy(_percent)

        relative_tolerance = d.pop("relative_tolerance", UNSET)

        _units = d.pop("units", UNSET)
        units: UnitPolicy | Unset
        if isinstance(_units, Unset):
            units = UNSET
        else:
            units = check_unit_policy(_units)

        math_options = cls(
            accept_rounded=accept_rounded,
            allow_assignment=allow_assignment,
            allow_multiple_boxed=allow_multiple_boxed,
            angle_conversion=angle_conversion,
            extraction=extraction,
            percent=percent,
            relative_tolerance=relative_tolerance,
            units=units,
        )

        return math_options
