from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.process_aggregate import ProcessAggregate, check_process_aggregate
from ..models.process_split import ProcessSplit, check_process_split
from ..models.reasoning import Reasoning, check_reasoning
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.process_check_type_0 import ProcessCheckType0
    from ..models.process_check_type_1 import ProcessCheckType1


T = TypeVar("T", bound="ProcessInput")


@_attrs_define
class ProcessInput:
    """One `process` item.

    Example:
        {'aggregate': 'min', 'check': {'by': 'verifier', 'expected': [{'reference': '12'}, {'reference': '14'},
            {'reference': '14'}], 'verifier': 'math'}, 'response': 'Step 1: 3 * 4 = 12.\\nStep 2: 2 + 12 = 15.\\nStep 3: The
            answer is 15.'}

    Attributes:
        check (ProcessCheckType0 | ProcessCheckType1): How each step is scored.
        response (str): The model's response.
        aggregate (ProcessAggregate | Unset): How the checked steps' scores combine.
        reasoning (Reasoning | Unset): What to do with a `<think>...</think>` reasoning block.
        split (ProcessSplit | Unset): How a response is cut into steps.
        token_offsets (list[list[int]] | None | Unset): The trainer's tokens of `response` as `[start, end)` character
            offsets, in order (as a
            tokenizer's offset mapping gives them): each step then says which tokens it covers.
    """

    check: ProcessCheckType0 | ProcessCheckType1
    response: str
    aggregate: ProcessAggregate | Unset = UNSET
    reasoning: Reasoning | Unset = UNSET
    split: ProcessSplit | Unset = UNSET
    token_offsets: list[list[int]] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.process_check_type_0 import ProcessCheckType0

        check: dict[str, Any]
        if isinstance(self.check, ProcessCheckType0):
            check = self.check.to_dict()
        else:
            check = self.check.to_dict()

        response = self.response

        aggregate: str | Unset = UNSET
        if not isinstance(self.aggregate, Unset):
            aggregate = self.aggregate

        reasoning: str | Unset = UNSET
        if not isinstance(self.reasoning, Unset):
            reasoning = self.reasoning

        split: str | Unset = UNSET
        if not isinstance(self.split, Unset):
            split = self.split

        token_offsets: list[list[int]] | None | Unset
        if isinstance(self.token_offsets, Unset):
            token_offsets = UNSET
        elif isinstance(self.token_offsets, list):
            token_offsets = []
            for token_offsets_type_0_item_data in self.token_offsets:
                token_offsets_type_0_item = token_offsets_type_0_item_data

                token_offsets.append(token_offsets_type_0_item)

        else:
            token_offsets = self.token_offsets

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "check": check,
                "response": response,
            }
        )
        if aggregate is not UNSET:
            field_dict["aggregate"] = aggregate
        if reasoning is not UNSET:
            field_dict["reasoning"] = reasoning
        if split is not UNSET:
            field_dict["split"] = split
        if token_offsets is not UNSET:
            field_dict["token_offsets"] = token_offsets

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.process_check_type_0 import ProcessCheckType0
        from ..models.process_check_type_1 import ProcessCheckType1

        d = dict(src_dict)

        def _parse_check(data: object) -> ProcessCheckType0 | ProcessCheckType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_process_check_type_0 = ProcessCheckType0.from_dict(
                    data
                )

                return componentsschemas_process_check_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_process_check_type_1 = ProcessCheckType1.from_dict(data)

            return componentsschemas_process_check_type_1

        check = _parse_check(d.pop("check"))

        response = d.pop("response")

        _aggregate = d.pop("aggregate", UNSET)
        aggregate: ProcessAggregate | Unset
        if isinstance(_aggregate, Unset):
            aggregate = UNSET
        else:
            aggregate = check_process_aggregate(_aggregate)

        _reasoning = d.pop("reasoning", UNSET)
        reasoning: Reasoning | Unset
        if isinstance(_reasoning, Unset):
            reasoning = UNSET
        else:
            reasoning = check_reasoning(_reasoning)

        _split = d.pop("split", UNSET)
        split: ProcessSplit | Unset
        if isinstance(_split, Unset):
            split = UNSET
        else:
            split = check_process_split(_split)

        def _parse_token_offsets(data: object) -> list[list[int]] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                token_offsets_type_0 = []
                _token_offsets_type_0 = data
                for token_offsets_type_0_item_data in _token_offsets_type_0:
                    token_offsets_type_0_item = cast(
                        list[int], token_offsets_type_0_item_data
                    )

                    token_offsets_type_0.append(token_offsets_type_0_item)

                return token_offsets_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[list[int]] | None | Unset, data)

        token_offsets = _parse_token_offsets(d.pop("token_offsets", UNSET))

        process_input = cls(
            check=check,
            response=response,
            aggregate=aggregate,
            reasoning=reasoning,
            split=split,
            token_offsets=token_offsets,
        )

        return process_input
