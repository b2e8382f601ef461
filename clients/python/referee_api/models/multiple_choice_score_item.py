from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.multiple_choice_score_item_verifier import (
    MultipleChoiceScoreItemVerifier,
    check_multiple_choice_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.multiple_choice_input import MultipleChoiceInput


T = TypeVar("T", bound="MultipleChoiceScoreItem")


@_attrs_define
class MultipleChoiceScoreItem:
    """An item for `multiple-choice`. Extracts the option letter(s) a free-text response chooses, from the most explicit
    marker present: \\boxed{}, <answer> tags, 'the answer is (B)', a bold **B**, or a bare final line, or an option's
    exact text. Scores 1 when the chosen set equals the reference set. A response that names more options than the
    reference (hedging, 'A or B') scores 0.

        Attributes:
            input_ (MultipleChoiceInput): Extracts the option letter(s) a free-text response chooses ("The answer is (B)",
                `\\boxed{B}`, "**B**", `<answer>B</answer>`) and compares them with the reference. A response
                that names more options than the reference has (hedging, "A or B") is incorrect.
            verifier (MultipleChoiceScoreItemVerifier):
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: MultipleChoiceInput
    verifier: MultipleChoiceScoreItemVerifier
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
        from ..models.multiple_choice_input import MultipleChoiceInput

        d = dict(src_dict)
        input_ = MultipleChoiceInput.from_dict(d.pop("input"))

        verifier = check_multiple_choice_score_item_verifier(d.pop("verifier"))

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

        multiple_choice_score_item = cls(
            input_=input_,
            verifier=verifier,
            id=id,
            label=label,
        )

        return multiple_choice_score_item
