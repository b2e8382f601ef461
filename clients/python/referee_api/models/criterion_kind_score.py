from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_score_type import (
    CriterionKindScoreType,
    check_criterion_kind_score_type,
)

T = TypeVar("T", bound="CriterionKindScore")


@_attrs_define
class CriterionKindScore:
    """The judge gives a number in [min, max]; it is clipped to the range and mapped to [0, 1].
    A reply without a number fails the item.

        Attributes:
            max_ (float):
            min_ (float):
            type_ (CriterionKindScoreType):
    """

    max_: float
    min_: float
    type_: CriterionKindScoreType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        max_ = self.max_

        min_ = self.min_

        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "max": max_,
                "min": min_,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        max_ = d.pop("max")

        min_ = d.pop("min")

        type_ = check_criterion_kind_score_type(d.pop("type"))

        criterion_kind_score = cls(
            max_=max_,
            min_=min_,
            type_=type_,
        )

        criterion_kind_score.additional_properties = d
        return criterion_kind_score

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
