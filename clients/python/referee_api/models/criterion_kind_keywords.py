from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_keywords_type import (
    CriterionKindKeywordsType,
    check_criterion_kind_keywords_type,
)
from ..models.keyword_mode import KeywordMode, check_keyword_mode
from ..types import UNSET, Unset

T = TypeVar("T", bound="CriterionKindKeywords")


@_attrs_define
class CriterionKindKeywords:
    """Keywords found in the response, matched as whole words.

    Attributes:
        keywords (list[str]): 1 to 256 keywords or phrases.
        type_ (CriterionKindKeywordsType):
        case_sensitive (bool | Unset): Match case exactly (default: case-insensitive).
        mode (KeywordMode | Unset): How keywords are counted.
    """

    keywords: list[str]
    type_: CriterionKindKeywordsType
    case_sensitive: bool | Unset = UNSET
    mode: KeywordMode | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        keywords = self.keywords

        type_: str = self.type_

        case_sensitive = self.case_sensitive

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "keywords": keywords,
                "type": type_,
            }
        )
        if case_sensitive is not UNSET:
            field_dict["case_sensitive"] = case_sensitive
        if mode is not UNSET:
            field_dict["mode"] = mode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        keywords = cast(list[str], d.pop("keywords"))

        type_ = check_criterion_kind_keywords_type(d.pop("type"))

        case_sensitive = d.pop("case_sensitive", UNSET)

        _mode = d.pop("mode", UNSET)
        mode: KeywordMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = check_keyword_mode(_mode)

        criterion_kind_keywords = cls(
            keywords=keywords,
            type_=type_,
            case_sensitive=case_sensitive,
            mode=mode,
        )

        criterion_kind_keywords.additional_properties = d
        return criterion_kind_keywords

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
