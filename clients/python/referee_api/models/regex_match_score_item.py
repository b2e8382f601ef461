from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.regex_match_score_item_verifier import (
    RegexMatchScoreItemVerifier,
    check_regex_match_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.regex_match_input import RegexMatchInput


T = TypeVar("T", bound="RegexMatchScoreItem")


@_attrs_define
class RegexMatchScoreItem:
    """An item for `regex-match`. Matches a user-supplied regular expression (Rust regex syntax: linear time, no
    backreferences or look-around, size and nesting limits) against the response or the answer extracted from it, as a
    full or partial match, optionally ignoring case. Scores 1 on a match and 0 otherwise; an invalid pattern is that
    item's invalid_input.

        Attributes:
            input_ (RegexMatchInput): Matches a regular expression against the response (or the answer extracted from it).
                Patterns use the Rust `regex` syntax, which has no backreferences or look-around and runs in
                time linear in the input, so no pattern can backtrack catastrophically.
            verifier (RegexMatchScoreItemVerifier):
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: RegexMatchInput
    verifier: RegexMatchScoreItemVerifier
    id: None | str | Unset = UNSET
    label: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        input_ = self.input_.to_dict()

        verifier: str = self.verifier

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "input": input_,
                "verifier": verifier,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if label is not UNSET:
            field_dict["label"] = label

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.regex_match_input import RegexMatchInput

        d = dict(src_dict)
        input_ = RegexMatchInput.from_dict(d.pop("input"))

        verifier = check_regex_match_score_item_verifier(d.pop("verifier"))

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        regex_match_score_item = cls(
            input_=input_,
            verifier=verifier,
            id=id,
            label=label,
        )

        return regex_match_score_item
