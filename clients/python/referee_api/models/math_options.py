from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.extraction_mode import ExtractionMode, check_extraction_mode
from ..models.percent_policy import PercentPolicy, check_percent_policy
from ..types import UNSET, Unset

T = TypeVar("T", bound="MathOptions")


@_attrs_define
class MathOptions:
    """Options of one math item; every field has a default.

    Attributes:
        accept_rounded (bool | Unset): Accept a decimal that equals the exact value rounded to the places written, when
            it
            has at least two significant digits (`0.33` for `1/3`, `16386.17` for `16386.169...`). Default: True.
        allow_assignment (bool | Unset): Whether an assignment `x = 3` matches the value `3` (and `k = 1/3` matches
            `1/3`). Default: True.
        allow_multiple_boxed (bool | Unset): Whether several boxed answers next to each other form one list answer
            (`\\boxed{1}`
            and `\\boxed{2}` answer `1, 2`). When false, a response with several different boxed
            answers is treated as hedging and scored incorrect. Default: True.
        extraction (ExtractionMode | Unset): Where the answer is looked for in the response.
        percent (PercentPolicy | Unset): How `x%` compares with a plain number.
        relative_tolerance (float | Unset): Relative tolerance for comparisons in which either side is written with
            decimals
            (`3.14159265` against `\\pi`). Exact values are always compared exactly. Default: 1e-09.
    """

    accept_rounded: bool | Unset = True
    allow_assignment: bool | Unset = True
    allow_multiple_boxed: bool | Unset = True
    extraction: ExtractionMode | Unset = UNSET
    percent: PercentPolicy | Unset = UNSET
    relative_tolerance: float | Unset = 1e-09

    def to_dict(self) -> dict[str, Any]:
        accept_rounded = self.accept_rounded

        allow_assignment = self.allow_assignment

        allow_multiple_boxed = self.allow_multiple_boxed

        extraction: str | Unset = UNSET
        if not isinstance(self.extraction, Unset):
            extraction = self.extraction

        percent: str | Unset = UNSET
        if not isinstance(self.percent, Unset):
            percent = self.percent

        relative_tolerance = self.relative_tolerance

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if accept_rounded is not UNSET:
            field_dict["accept_rounded"] = accept_rounded
        if allow_assignment is not UNSET:
            field_dict["allow_assignment"] = allow_assignment
        if allow_multiple_boxed is not UNSET:
            field_dict["allow_multiple_boxed"] = allow_multiple_boxed
        if extraction is not UNSET:
            field_dict["extraction"] = extraction
        if percent is not UNSET:
            field_dict["percent"] = percent
        if relative_tolerance is not UNSET:
            field_dict["relative_tolerance"] = relative_tolerance

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        accept_rounded = d.pop("accept_rounded", UNSET)

        allow_assignment = d.pop("allow_assignment", UNSET)

        allow_multiple_boxed = d.pop("allow_multiple_boxed", UNSET)

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

        math_options = cls(
            accept_rounded=accept_rounded,
            allow_assignment=allow_assignment,
            allow_multiple_boxed=allow_multiple_boxed,
            extraction=extraction,
            percent=percent,
            relative_tolerance=relative_tolerance,
        )

        return math_options
