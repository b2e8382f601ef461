from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_label_type import (
    CriterionKindLabelType,
    check_criterion_kind_label_type,
)

T = TypeVar("T", bound="CriterionKindLabel")


@_attrs_define
class CriterionKindLabel:
    """The judge picks a label; 1 when it is one of `passing`.

    Attributes:
        labels (list[str]): 2 to 32 distinct labels.
        passing (list[str]): The labels that pass.
        type_ (CriterionKindLabelType):
    """

    labels: list[str]
    passing: list[str]
    type_: CriterionKindLabelType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        labels = self.labels

        passing = self.passing

        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "labels": labels,
                "passing": passing,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        labels = cast(list[str], d.pop("labels"))

        passing = cast(list[str], d.pop("passing"))

        type_ = check_criterion_kind_label_type(d.pop("type"))

        criterion_kind_label = cls(
            labels=labels,
            passing=passing,
            type_=type_,
        )

        criterion_kind_label.additional_properties = d
        return criterion_kind_label

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
