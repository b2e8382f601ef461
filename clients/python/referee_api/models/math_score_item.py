from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.math_score_item_verifier import (
    MathScoreItemVerifier,
    check_math_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.math_input import MathInput


T = TypeVar("T", bound="MathScoreItem")


@_attrs_define
class MathScoreItem:
    """An item for `math`. Math answer equivalence: extracts the final answer from a response and compares it with the
    reference exactly (big rationals, radicals, polynomial normal forms), numerically where exact forms cannot decide,
    and structurally for sets, intervals, tuples, matrices and equations. Score 1 when equivalent, else 0.

        Attributes:
            input_ (MathInput): One math item: a model response and the reference answer it is judged against.

                The response may be a full solution; the final answer is extracted from `\\boxed{}`,
                `<answer>` tags, "final answer" phrases, bold values, the last formula or the last number.
                The reference may be LaTeX or plain text, with or without `$...$` or `\\boxed{}`.
            verifier (MathScoreItemVerifier):
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: MathInput
    verifier: MathScoreItemVerifier
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
        from ..models.math_input import MathInput

        d = dict(src_dict)
        input_ = MathInput.from_dict(d.pop("input"))

        verifier = check_math_score_item_verifier(d.pop("verifier"))

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

        math_score_item = cls(
            input_=input_,
            verifier=verifier,
            id=id,
            label=label,
        )

        return math_score_item
