from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.process_score_item_verifier import (
    ProcessScoreItemVerifier,
    check_process_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.process_input import ProcessInput


T = TypeVar("T", bound="ProcessScoreItem")


@_attrs_define
class ProcessScoreItem:
    """An item for `process`. Step-level rewards: the response cut into steps (markers, lines, paragraphs), each scored by
    the LLM judge or by a verifier on its intermediate answer, returned with character (and token) offsets; min,
    product, mean, last or first-error aggregate.

        Attributes:
            input_ (ProcessInput): One `process` item. Example: {'aggregate': 'min', 'check': {'by': 'verifier', 'expected':
                [{'reference': '12'}, {'reference': '14'}, {'reference': '14'}], 'verifier': 'math'}, 'response': 'Step 1: 3 * 4
                = 12.\\nStep 2: 2 + 12 = 15.\\nStep 3: The answer is 15.'}.
            verifier (ProcessScoreItemVerifier):
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: ProcessInput
    verifier: ProcessScoreItemVerifier
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
        from ..models.process_input import ProcessInput

        d = dict(src_dict)
        input_ = ProcessInput.from_dict(d.pop("input"))

        verifier = check_process_score_item_verifier(d.pop("verifier"))

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

        process_score_item = cls(
            input_=input_,
            verifier=verifier,
            id=id,
            label=label,
        )

        return process_score_item
