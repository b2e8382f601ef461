from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.composite_aggregate import CompositeAggregate, check_composite_aggregate
from ..models.composite_split import CompositeSplit, check_composite_split
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.composite_part import CompositePart


T = TypeVar("T", bound="CompositeInput")


@_attrs_define
class CompositeInput:
    """One `composite` item: a response answering several sub-problems in order.

    Example:
        {'parts': [{'input': {'reference': '12'}, 'verifier': 'math'}, {'input': {'reference': '0.75'}, 'verifier':
            'math'}], 'response': '1. 12\\n2. 3/4', 'split': 'numbered'}

    Attributes:
        parts (list[CompositePart]): The sub-problems, in the order their answers appear (1 to 64).
        response (str): The model's response.
        aggregate (CompositeAggregate | Unset): How the parts' scores combine into the item's score.
        split (CompositeSplit | Unset): How the response is cut into the parts' answers.
    """

    parts: list[CompositePart]
    response: str
    aggregate: CompositeAggregate | Unset = UNSET
    split: CompositeSplit | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        parts = []
        for parts_item_data in self.parts:
            parts_item = parts_item_data.to_dict()
            parts.append(parts_item)

        response = self.response

        aggregate: str | Unset = UNSET
        if not isinstance(self.aggregate, Unset):
            aggregate = self.aggregate

        split: str | Unset = UNSET
        if not isinstance(self.split, Unset):
            split = self.split

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "parts": parts,
                "response": response,
            }
        )
        if aggregate is not UNSET:
            field_dict["aggregate"] = aggregate
        if split is not UNSET:
            field_dict["split"] = split

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.composite_part import CompositePart

        d = dict(src_dict)
        parts = []
        _parts = d.pop("parts")
        for parts_item_data in _parts:
            parts_item = CompositePart.from_dict(parts_item_data)

            parts.append(parts_item)

        response = d.pop("response")

        _aggregate = d.pop("aggregate", UNSET)
        aggregate: CompositeAggregate | Unset
        if isinstance(_aggregate, Unset):
            aggregate = UNSET
        else:
            aggregate = check_composite_aggregate(_aggregate)

        _split = d.pop("split", UNSET)
        split: CompositeSplit | Unset
        if isinstance(_split, Unset):
            split = UNSET
        else:
            split = check_composite_split(_split)

        composite_input = cls(
            parts=parts,
            response=response,
            aggregate=aggregate,
            split=split,
        )

        return composite_input
