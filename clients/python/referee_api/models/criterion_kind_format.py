from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_format_type import (
    CriterionKindFormatType,
    check_criterion_kind_format_type,
)
from ..models.text_format import TextFormat, check_text_format

T = TypeVar("T", bound="CriterionKindFormat")


@_attrs_define
class CriterionKindFormat:
    """1 when the response contains the format.

    Attributes:
        format_ (TextFormat): A text format a response must contain.
        type_ (CriterionKindFormatType):
    """

    format_: TextFormat
    type_: CriterionKindFormatType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        format_: str = self.format_

        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "format": format_,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        format_ = check_text_format(d.pop("format"))

        type_ = check_criterion_kind_format_type(d.pop("type"))

        criterion_kind_format = cls(
            format_=format_,
            type_=type_,
        )

        criterion_kind_format.additional_properties = d
        return criterion_kind_format

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
