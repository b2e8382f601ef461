from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.extraction import Extraction, check_extraction
from ..models.match_mode import MatchMode, check_match_mode
from ..models.reasoning import Reasoning, check_reasoning
from ..types import UNSET, Unset

T = TypeVar("T", bound="RegexMatchInput")


@_attrs_define
class RegexMatchInput:
    """Matches a regular expression against the response (or the answer extracted from it).
    Patterns use the Rust `regex` syntax, which has no backreferences or look-around and runs in
    time linear in the input, so no pattern can backtrack catastrophically.

        Attributes:
            pattern (str): The pattern, at most 4096 bytes, nesting at most 64 deep.
            response (str): The model's output; its reasoning is dropped unless `reasoning` is `keep`.
            case_insensitive (bool | Unset): Match letters regardless of case.
            extract (Extraction | Unset): Where to find the answer inside a full response before comparing it.
            mode (MatchMode | Unset): Whether the pattern must match the whole answer or any part of it.
            reasoning (Reasoning | Unset): What to do with a `<think>...</think>` reasoning block.
    """

    pattern: str
    response: str
    case_insensitive: bool | Unset = UNSET
    extract: Extraction | Unset = UNSET
    mode: MatchMode | Unset = UNSET
    reasoning: Reasoning | Unset = UNSET

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

        reasoning: str | Unset = UNSET
        if not isinstance(self.reasoning, Unset):
            reasoning = self.reasoning

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
        if reasoning is not UNSET:
            field_dict["reasoning"] = reasoning

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

        _reasoning = d.pop("reasoning", UNSET)
        reasoning: Reasoning | Unset
        if isinstance(_reasoning, Unset):
            reasoning = UNSET
        else:
            reasoning = check_reasoning(_reasoning)

        regex_match_input = cls(
            pattern=pattern,
            response=response,
            case_insensitive=case_insensitive,
            extract=extract,
            mode=mode,
            reasoning=reasoning,
        )

        return regex_match_input
