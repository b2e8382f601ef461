from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_regex_type import (
    CriterionKindRegexType,
    check_criterion_kind_regex_type,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CriterionKindRegex")


@_attrs_define
class CriterionKindRegex:
    """1 when the pattern matches somewhere in the response (or, with `absent`, when it does not).

    Attributes:
        pattern (str): A Rust `regex` pattern (linear time; `(?i)` for case-insensitive).
        type_ (CriterionKindRegexType):
        absent (bool | Unset): Pass when the pattern does not match.
    """

    pattern: str
    type_: CriterionKindRegexType
    absent: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        pattern = self.pattern

        type_: str = self.type_

        absent = self.absent

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "pattern": pattern,
                "type": type_,
            }
        )
        if absent is not UNSET:
            field_dict["absent"] = absent

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pattern = d.pop("pattern")

        type_ = check_criterion_kind_regex_type(d.pop("type"))

        absent = d.pop("absent", UNSET)

        criterion_kind_regex = cls(
            pattern=pattern,
            type_=type_,
            absent=absent,
        )

        criterion_kind_regex.additional_properties = d
        return criterion_kind_regex

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
