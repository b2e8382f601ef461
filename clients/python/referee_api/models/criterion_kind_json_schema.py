from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_json_schema_type import (
    CriterionKindJsonSchemaType,
    check_criterion_kind_json_schema_type,
)

if TYPE_CHECKING:
    from ..models.criterion_kind_json_schema_schema import CriterionKindJsonSchemaSchema


T = TypeVar("T", bound="CriterionKindJsonSchema")


@_attrs_define
class CriterionKindJsonSchema:
    """1 when the response is JSON valid against the schema (the JSON Schema keywords listed in
    `docs/verifiers/rubric.md`).

        Attributes:
            schema (CriterionKindJsonSchemaSchema): A JSON Schema object.
            type_ (CriterionKindJsonSchemaType):
    """

    schema: CriterionKindJsonSchemaSchema
    type_: CriterionKindJsonSchemaType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        schema = self.schema.to_dict()

        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "schema": schema,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.criterion_kind_json_schema_schema import (
            CriterionKindJsonSchemaSchema,
        )

        d = dict(src_dict)
        schema = CriterionKindJsonSchemaSchema.from_dict(d.pop("schema"))

        type_ = check_criterion_kind_json_schema_type(d.pop("type"))

        criterion_kind_json_schema = cls(
            schema=schema,
            type_=type_,
        )

        criterion_kind_json_schema.additional_properties = d
        return criterion_kind_json_schema

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
