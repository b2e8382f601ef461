from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.extraction import Extraction, check_extraction
from ..models.match_mode import MatchMode, check_match_mode
from ..types import UNSET, Unset

T = TypeVar("T", bound="RegexMatchInput")


@_attrs_define
class RegexMatchInput:
    """Matches a regular expression against the response (or the answer extracted from it).
    Patterns use the Rust `regex` syntax, which has no backreferences or look-around and runs in
    time linear in the input, so no pattern can backtrack catastrophically.

        Attributes:
            pattern (str): The pattern, at most 4096 bytes, nesting at most 64 deep.
            response (str): The model's output.
            case_insensitive (bool | Unset): Match letters regardless of case.
            extract (Extraction | Unset): Where to find the answer inside a full response before comparing it.
            mode (MatchMode | Unset): Whether the pattern must match the whole answer or any part of it.
    """

    pattern: str
    response: str
    case_insensitive: bool | Unset = UNSET
    extract: Extraction | Unset = UNSET
    mode: MatchMode | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        pattern = self.pattern

        response = self.response

        case_insensitive = self.case_insensitive

        extract: str | Unset = UNSET
        if not isinstance(self.extract, Unset):
            extract = self.extract

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pattern": pattern,
                "response": response,
            }
        )
        if case_insensitive is not UNSET:
            field_dict["case_insensitive"] = case_insensitive
        if extract is not UNSET:
            field_dict["extract"] = extract
        if mode is not UNSET:
            field_dict["mode"] = mode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pattern = d.pop("pattern")

        response = d.pop("response")

        case_insensitive = d.pop("case_insensitive", UNSET)

        _extract = d.pop("extract", UNSET)
        extract: Extraction | Unset
        if isinstance(_extract, Unset):
            extract = UNSET
        else:
            extract = check_extraction(_extract)

        _mode = d.pop("mode", UNSET)
        mode: MatchMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = check_match_mode(_mode)

        regex_match_input = cls(
            pattern=pattern,
            response=response,
            case_insensitive=case_insensitive,
            extract=extract,
            mode=mode,
        )

        return regex_match_input
