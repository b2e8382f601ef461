from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_language_type import (
    CriterionKindLanguageType,
    check_criterion_kind_language_type,
)

T = TypeVar("T", bound="CriterionKindLanguage")


@_attrs_define
class CriterionKindLanguage:
    """1 when the response is written in the language (ISO 639-1 code, e.g. `en`, `de`).

    Attributes:
        language (str): One of `en de fr es it pt nl ru uk zh ja ko ar he el hi th`.
        type_ (CriterionKindLanguageType):
    """

    language: str
    type_: CriterionKindLanguageType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        language = self.language

        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "language": language,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        language = d.pop("language")

        type_ = check_criterion_kind_language_type(d.pop("type"))

        criterion_kind_language = cls(
            language=language,
            type_=type_,
        )

        criterion_kind_language.additional_properties = d
        return criterion_kind_language

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
