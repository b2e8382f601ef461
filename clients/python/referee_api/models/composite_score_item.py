from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.composite_score_item_verifier import (
    CompositeScoreItemVerifier,
    check_composite_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.composite_input import CompositeInput


T = TypeVar("T", bound="CompositeScoreItem")


@_attrs_define
class CompositeScoreItem:
    """An item for `composite`. Several sub-problems answered in one response (VAR-MATH, R-Horizon): the response is cut
    into one answer per part (boxes, numbered lines, answer tags, a JSON array or lines), each checked by its named
    scorer against its own reference; `all` (default) scores 1 only when every part is correct, `mean` and `weighted`
    average the parts' scores.

        Attributes:
            input_ (CompositeInput): One `composite` item: a response answering several sub-problems in order. Example:
                {'parts': [{'input': {'reference': '12'}, 'verifier': 'math'}, {'input': {'reference': '0.75'}, 'verifier':
                'math'}], 'response': '1. 12\\n2. 3/4', 'split': 'numbered'}.
            verifier (CompositeScoreItemVerifier):
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: CompositeInput
    verifier: CompositeScoreItemVerifier
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
        from ..models.composite_input import CompositeInput

        d = dict(src_dict)
        input_ = CompositeInput.from_dict(d.pop("input"))

        verifier = check_composite_score_item_verifier(d.pop("verifier"))

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

        composite_score_item = cls(
            input_=input_,
            verifier=verifier,
            id=id,
            label=label,
        )

        return composite_score_item
