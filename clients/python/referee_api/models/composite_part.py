from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.composite_part_input import CompositePartInput


T = TypeVar("T", bound="CompositePart")


@_attrs_define
class CompositePart:
    """One sub-problem: the scorer that checks its answer and the rest of that scorer's input.

    Attributes:
        verifier (str): The scorer that checks this part's answer (`math`, `exact-match`, `multiple-choice`,
            `regex-match`, `np`, `code`, `rlpr`; not `composite` or `rubric`).
        input_ (CompositePartInput | Unset): That scorer's input without `response`, which is this part's answer: e.g.
            `{"reference": "3/4"}` for `math`.
        weight (float | Unset): The part's weight under `aggregate: weighted` (a finite number ≥ 0; default 1).
    """

    verifier: str
    input_: CompositePartInput | Unset = UNSET
    weight: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        verifier = self.verifier

        input_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.input_, Unset):
            input_ = self.input_.to_dict()

        weight = self.weight

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "verifier": verifier,
            }
        )
        if input_ is not UNSET:
            field_dict["input"] = input_
        if weight is not UNSET:
            field_dict["weight"] = weight

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.composite_part_input import CompositePartInput

        d = dict(src_dict)
        verifier = d.pop("verifier")

        _input_ = d.pop("input", UNSET)
        input_: CompositePartInput | Unset
        if isinstance(_input_, Unset):
            input_ = UNSET
        else:
            input_ = CompositePartInput.from_dict(_input_)

        weight = d.pop("weight", UNSET)

        composite_part = cls(
            verifier=verifier,
            input_=input_,
            weight=weight,
        )

        return composite_part
