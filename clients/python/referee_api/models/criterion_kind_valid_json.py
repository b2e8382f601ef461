from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_valid_json_type import (
    CriterionKindValidJsonType,
    check_criterion_kind_valid_json_type,
)

T = TypeVar("T", bound="CriterionKindValidJson")


@_attrs_define
class CriterionKindValidJson:
    """1 when the response (or the one fenced code block it consists of) is valid JSON.

    Attributes:
        type_ (CriterionKindValidJsonType):
    """

    type_: CriterionKindValidJsonType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = check_criterion_kind_valid_json_type(d.pop("type"))

        criterion_kind_valid_json = cls(
            type_=type_,
        )

        criterion_kind_valid_json.additional_properties = d
        return criterion_kind_valid_json

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
