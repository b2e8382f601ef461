from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_type_12_type import (
    CriterionKindType12Type,
    check_criterion_kind_type_12_type,
)

T = TypeVar("T", bound="CriterionKindType12")


@_attrs_define
class CriterionKindType12:
    """The judge picks one of ordered tiers, worst to best; tier i of k scores i/(k-1).

    Attributes:
        choices (list[str]): 2 to 32 distinct tiers, worst first.
        type_ (CriterionKindType12Type):
    """

    choices: list[str]
    type_: CriterionKindType12Type
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        choices = self.choices

        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "choices": choices,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        choices = cast(list[str], d.pop("choices"))

        type_ = check_criterion_kind_type_12_type(d.pop("type"))

        criterion_kind_type_12 = cls(
            choices=choices,
            type_=type_,
        )

        criterion_kind_type_12.additional_properties = d
        return criterion_kind_type_12

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
