from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.grounding_score_item_verifier import (
    GroundingScoreItemVerifier,
    check_grounding_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.grounding_input import GroundingInput


T = TypeVar("T", bound="GroundingScoreItem")


@_attrs_define
class GroundingScoreItem:
    """An item for `grounding`. A long-context answer citing the context chunks it used (LongRLVR): the cited ids are
    scored against the gold chunks with an F-score (β = 2), the answer by a named scorer, combined as r = r_ans + 0.1·F
    + 0.9·r_ans·F.

        Attributes:
            input_ (GroundingInput): One `grounding` item. Example: {'answer': {'input': {'reference': 'Normandy is in
                France.'}, 'verifier': 'exact-match'}, 'context_chunks': 40, 'gold_chunks': [3, 17], 'response':
                '<useful_chunks>\\n<CHUNK_3> <CHUNK_17>\\n</useful_chunks>\\n<answer>Normandy is in France.</answer>'}.
            verifier (GroundingScoreItemVerifier):
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: GroundingInput
    verifier: GroundingScoreItemVerifier
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
        from ..models.grounding_input import GroundingInput

        d = dict(src_dict)
        input_ = GroundingInput.from_dict(d.pop("input"))

        verifier = check_grounding_score_item_verifier(d.pop("verifier"))

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

        grounding_score_item = cls(
            input_=input_,
            verifier=verifier,
            id=id,
            label=label,
        )

        return grounding_score_item
