from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_section_type import (
    CriterionKindSectionType,
    check_criterion_kind_section_type,
)

T = TypeVar("T", bound="CriterionKindSection")


@_attrs_define
class CriterionKindSection:
    """1 when the response has a section with this heading (a Markdown heading, a bold line or
    a `Heading:` line; case-insensitive).

        Attributes:
            heading (str):
            type_ (CriterionKindSectionType):
    """

    heading: str
    type_: CriterionKindSectionType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        heading = self.heading

        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "heading": heading,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        heading = d.pop("heading")

        type_ = check_criterion_kind_section_type(d.pop("type"))

        criterion_kind_section = cls(
            heading=heading,
            type_=type_,
        )

        criterion_kind_section.additional_properties = d
        return criterion_kind_section

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
