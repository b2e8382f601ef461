from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.rubric_score_item_verifier import (
    RubricScoreItemVerifier,
    check_rubric_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rubric_input import RubricInput


T = TypeVar("T", bound="RubricScoreItem")


@_attrs_define
class RubricScoreItem:
    """An item for `rubric`. Scores a response against a rubric: weighted rule criteria (patterns, keywords, length, JSON
    and JSON Schema, language, sections, formats, BLEU/ROUGE-L/fuzzy similarity), registered verifiers as criteria, and
    LLM-judge criteria (score, label, ordered choices, RLBFF binary principles scored P(yes)); weighted mean or formula
    aggregation, with vetoes.

        Attributes:
            input_ (RubricInput): One response to score against a rubric.

                Give the rubric inline (`rubric`) or name a stored one (`rubric_id`, with `rubric_version`
                to pin a version; the latest otherwise). Verdicts are `correct` at score 1, `incorrect` at 0
                or when a veto criterion fails, `partial` between; `internal_error` or `timeout` when the
                judge or a verifier criterion could not judge. Details list every criterion's score and
                whether it passed, the vetoes, and each judge call's reply (truncated) and cache hit.
            verifier (RubricScoreItemVerifier):
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: RubricInput
    verifier: RubricScoreItemVerifier
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
        from ..models.rubric_input import RubricInput

        d = dict(src_dict)
        input_ = RubricInput.from_dict(d.pop("input"))

        verifier = check_rubric_score_item_verifier(d.pop("verifier"))

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

        rubric_score_item = cls(
            input_=input_,
            verifier=verifier,
            id=id,
            label=label,
        )

        return rubric_score_item
