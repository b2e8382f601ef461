from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.grounding_answer_input import GroundingAnswerInput


T = TypeVar("T", bound="GroundingAnswer")


@_attrs_define
class GroundingAnswer:
    """The scorer that checks the answer.

    Attributes:
        verifier (str): Any registered scorer but `grounding` and `composite`: `exact-match`, `math`,
            `multiple-choice`, `rubric` (an LLM judge, as LongRLVR's answer reward), ...
        input_ (GroundingAnswerInput | Unset): That scorer's input without `response`, which is the answer read from the
            response.
    """

    verifier: str
    input_: GroundingAnswerInput | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        verifier = self.verifier

        input_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.input_, Unset):
            input_ = self.input_.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "verifier": verifier,
            }
        )
        if input_ is not UNSET:
            field_dict["input"] = input_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.grounding_answer_input import GroundingAnswerInput

        d = dict(src_dict)
        verifier = d.pop("verifier")

        _input_ = d.pop("input", UNSET)
        input_: GroundingAnswerInput | Unset
        if isinstance(_input_, Unset):
            input_ = UNSET
        else:
            input_ = GroundingAnswerInput.from_dict(_input_)

        grounding_answer = cls(
            verifier=verifier,
            input_=input_,
        )

        return grounding_answer
