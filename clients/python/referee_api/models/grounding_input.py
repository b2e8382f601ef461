from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.grounding_format import GroundingFormat, check_grounding_format
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.grounding_answer import GroundingAnswer


T = TypeVar("T", bound="GroundingInput")


@_attrs_define
class GroundingInput:
    """One `grounding` item.

    Example:
        {'answer': {'input': {'reference': 'Normandy is in France.'}, 'verifier': 'exact-match'}, 'context_chunks': 40,
            'gold_chunks': [3, 17], 'response': '<useful_chunks>\\n<CHUNK_3>
            <CHUNK_17>\\n</useful_chunks>\\n<answer>Normandy is in France.</answer>'}

    Attributes:
        answer (GroundingAnswer): The scorer that checks the answer.
        gold_chunks (list[int]): The ids of the chunks that hold the evidence (1 to 4,096 ids; repeats count once).
        response (str): The model's response.
        beta (float | Unset): The F-score's β: recall counts β² times as much as precision (default 2, LongRLVR's).
        context_chunks (int | None | Unset): How many chunks the context had (ids 0 to `context_chunks - 1`); cited ids
            outside are
            counted and reported. Optional: without it every id is taken as inside.
        context_weight (float | Unset): `c`: the weight of the citations' F-score alone (default 0.1).
        format_ (GroundingFormat | Unset): How the response cites chunks and states its answer.
        joint_weight (float | Unset): `j`: the weight of the F-score when the answer is right (default 0.9).
        normalize (bool | Unset): Divide the reward by `1 + c + j`, its most, for a reward in [0, 1] (default false: the
            reward LongRLVR trains with).
    """

    answer: GroundingAnswer
    gold_chunks: list[int]
    response: str
    beta: float | Unset = UNSET
    context_chunks: int | None | Unset = UNSET
    context_weight: float | Unset = UNSET
    format_: GroundingFormat | Unset = UNSET
    joint_weight: float | Unset = UNSET
    normalize: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        answer = self.answer.to_dict()

        gold_chunks = self.gold_chunks

        response = self.response

        beta = self.beta

        context_chunks: int | None | Unset
        if isinstance(self.context_chunks, Unset):
            context_chunks = UNSET
        else:
            context_chunks = self.context_chunks

        context_weight = self.context_weight

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_

        joint_weight = self.joint_weight

        normalize = self.normalize

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "answer": answer,
                "gold_chunks": gold_chunks,
                "response": response,
            }
        )
        if beta is not UNSET:
            field_dict["beta"] = beta
        if context_chunks is not UNSET:
            field_dict["context_chunks"] = context_chunks
        if context_weight is not UNSET:
            field_dict["context_weight"] = context_weight
        if format_ is not UNSET:
            field_dict["format"] = format_
        if joint_weight is not UNSET:
            field_dict["joint_weight"] = joint_weight
        if normalize is not UNSET:
            field_dict["normalize"] = normalize

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.grounding_answer import GroundingAnswer

        d = dict(src_dict)
        answer = GroundingAnswer.from_dict(d.pop("answer"))

        gold_chunks = cast(list[int], d.pop("gold_chunks"))

        response = d.pop("response")

        beta = d.pop("beta", UNSET)

        def _parse_context_chunks(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        context_chunks = _parse_context_chunks(d.pop("context_chunks", UNSET))

        context_weight = d.pop("context_weight", UNSET)

        _format_ = d.pop("format", UNSET)
        format_: GroundingFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = check_grounding_format(_format_)

        joint_weight = d.pop("joint_weight", UNSET)

        normalize = d.pop("normalize", UNSET)

        grounding_input = cls(
            answer=answer,
            gold_chunks=gold_chunks,
            response=response,
            beta=beta,
            context_chunks=context_chunks,
            context_weight=context_weight,
            format_=format_,
            joint_weight=joint_weight,
            normalize=normalize,
        )

        return grounding_input
