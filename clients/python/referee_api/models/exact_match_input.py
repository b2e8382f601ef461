from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.extraction import Extraction, check_extraction
from ..models.operation import Operation, check_operation
from ..models.reasoning import Reasoning, check_reasoning
from ..types import UNSET, Unset

T = TypeVar("T", bound="ExactMatchInput")


@_attrs_define
class ExactMatchInput:
    """Compares a response with a reference string after optional answer extraction and
    normalisation. Scores 1 when the operation holds, else 0.

        Attributes:
            reference (str): The expected answer. It is normalised like the response but never extracted from.
            response (str): The model's output; its reasoning is dropped unless `reasoning` is `keep`.
            case_fold (bool | Unset): Compare case-insensitively (Unicode lowercase).
            collapse_whitespace (bool | Unset): Replace every run of whitespace with one space on both sides. Default: True.
            extract (Extraction | Unset): Where to find the answer inside a full response before comparing it.
            nfkc (bool | Unset): Apply Unicode NFKC first: full-width digits, ligatures and compatibility forms become
                plain ones.
            operation (Operation | Unset): The comparison, as in OpenAI's `string_check` grader.
            reasoning (Reasoning | Unset): What to do with a `<think>...</think>` reasoning block.
            trim (bool | Unset): Strip leading and trailing whitespace from both sides. Default: True.
    """

    reference: str
    response: str
    case_fold: bool | Unset = UNSET
    collapse_whitespace: bool | Unset = True
    extract: Extraction | Unset = UNSET
    nfkc: bool | Unset = UNSET
    operation: Operation | Unset = UNSET
    reasoning: Reasoning | Unset = UNSET
    trim: bool | Unset = True

    def to_dict(self) -> dict[str, Any]:
        reference = self.reference

        response = self.response

        case_fold = self.case_fold

        collapse_whitespace = self.collapse_whitespace

        extract: str | Unset = UNSET
        if not isinstance(self.extract, Unset):
            extract = self.extract

        nfkc = self.nfkc

        operation: str | Unset = UNSET
        if not isinstance(self.operation, Unset):
            operation = self.operation

        reasoning: str | Unset = UNSET
        if not isinstance(self.reasoning, Unset):
            reasoning = self.reasoning

        trim = self.trim

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reference": reference,
                "response": response,
            }
        )
        if case_fold is not UNSET:
            field_dict["case_fold"] = case_fold
        if collapse_whitespace is not UNSET:
            field_dict["collapse_whitespace"] = collapse_whitespace
        if extract is not UNSET:
            field_dict["extract"] = extract
        if nfkc is not UNSET:
            field_dict["nfkc"] = nfkc
        if operation is not UNSET:
            field_dict["operation"] = operation
        if reasoning is not UNSET:
            field_dict["reasoning"] = reasoning
        if trim is not UNSET:
            field_dict["trim"] = trim

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reference = d.pop("reference")

        response = d.pop("response")

        case_fold = d.pop("case_fold", UNSET)

        collapse_whitespace = d.pop("collapse_whitespace", UNSET)

        _extract = d.pop("extract", UNSET)
        extract: Extraction | Unset
        if isinstance(_extract, Unset):
            extract = UNSET
        else:
            extract = check_extraction(_extract)

        nfkc = d.pop("nfkc", UNSET)

        _operation = d.pop("operation", UNSET)
        operation: Operation | Unset
        if isinstance(_operation, Unset):
            operation = UNSET
        else:
            operation = check_operation(_operation)

        _reasoning = d.pop("reasoning", UNSET)
        reasoning: Reasoning | Unset
        if isinstance(_reasoning, Unset):
            reasoning = UNSET
        else:
            reasoning = check_reasoning(_reasoning)

        trim = d.pop("trim", UNSET)

        exact_match_input = cls(
            reference=reference,
            response=response,
            case_fold=case_fold,
            collapse_whitespace=collapse_whitespace,
            extract=extract,
            nfkc=nfkc,
            operation=operation,
            reasoning=reasoning,
            trim=trim,
        )

        return exact_match_input
