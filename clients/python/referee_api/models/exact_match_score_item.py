from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.exact_match_score_item_verifier import (
    ExactMatchScoreItemVerifier,
    check_exact_match_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.exact_match_input import ExactMatchInput


T = TypeVar("T", bound="ExactMatchScoreItem")


@_attrs_define
class ExactMatchScoreItem:
    """An item for `exact-match`. Compares the response with a reference string using OpenAI string_check operations (eq,
    ne, like, ilike) after optional answer extraction (<answer> tags, \\boxed{}, a final 'Answer:' line) and
    normalisation (trim, whitespace collapse, case folding, Unicode NFKC). Scores 1 when the operation holds and 0
    otherwise.

        Attributes:
            input_ (ExactMatchInput): Compares a response with a reference string after optional answer extraction and
                normalisation. Scores 1 when the operation holds, else 0.
            verifier (ExactMatchScoreItemVerifier):
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: ExactMatchInput
    verifier: ExactMatchScoreItemVerifier
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
        from ..models.exact_match_input import ExactMatchInput

        d = dict(src_dict)
        input_ = ExactMatchInput.from_dict(d.pop("input"))

        verifier = check_exact_match_score_item_verifier(d.pop("verifier"))

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

        exact_match_score_item = cls(
            input_=input_,
            verifier=verifier,
            id=id,
            label=label,
        )

        return exact_match_score_item
