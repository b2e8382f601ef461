from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_principle_type import (
    CriterionKindPrincipleType,
    check_criterion_kind_principle_type,
)
from ..models.principle_score import PrincipleScore, check_principle_score
from ..types import UNSET, Unset

T = TypeVar("T", bound="CriterionKindPrinciple")


@_attrs_define
class CriterionKindPrinciple:
    """A binary principle (RLBFF): the judge answers Yes or No to whether the response fulfils
    the `description`. Read from the judge's log-probs at its answer's Yes/No token (after
    any reasoning) when it returns them, else from the answer's text (1 or 0).

        Attributes:
            type_ (CriterionKindPrincipleType):
            score (PrincipleScore | Unset): What a principle criterion scores.
    """

    type_: CriterionKindPrincipleType
    score: PrincipleScore | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_: str = self.type_

        score: str | Unset = UNSET
        if not isinstance(self.score, Unset):
            score = self.score

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if score is not UNSET:
            field_dict["score"] = score

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = check_criterion_kind_principle_type(d.pop("type"))

        _score = d.pop("score", UNSET)
        score: PrincipleScore | Unset
        if isinstance(_score, Unset):
            score = UNSET
        else:
            score = check_principle_score(_score)

        criterion_kind_principle = cls(
            type_=type_,
            score=score,
        )

        criterion_kind_principle.additional_properties = d
        return criterion_kind_principle

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
