from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_length_type import (
    CriterionKindLengthType,
    check_criterion_kind_length_type,
)
from ..models.length_unit import LengthUnit, check_length_unit
from ..types import UNSET, Unset

T = TypeVar("T", bound="CriterionKindLength")


@_attrs_define
class CriterionKindLength:
    """1 when the response's length is within the bounds.

    Attributes:
        type_ (CriterionKindLengthType):
        unit (LengthUnit): What a length bound counts.
        max_ (int | None | Unset): Greatest length, inclusive.
        min_ (int | None | Unset): Least length, inclusive.
    """

    type_: CriterionKindLengthType
    unit: LengthUnit
    max_: int | None | Unset = UNSET
    min_: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_: str = self.type_

        unit: str = self.unit

        max_: int | None | Unset
        if isinstance(self.max_, Unset):
            max_ = UNSET
        else:
            max_ = self.max_

        min_: int | None | Unset
        if isinstance(self.min_, Unset):
            min_ = UNSET
        else:
            min_ = self.min_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "unit": unit,
            }
        )
        if max_ is not UNSET:
            field_dict["max"] = max_
        if min_ is not UNSET:
            field_dict["min"] = min_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = check_criterion_kind_length_type(d.pop("type"))

        unit = check_length_unit(d.pop("unit"))

        def _parse_max_(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_ = _parse_max_(d.pop("max", UNSET))

        def _parse_min_(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_ = _parse_min_(d.pop("min", UNSET))

        criterion_kind_length = cls(
            type_=type_,
            unit=unit,
            max_=max_,
            min_=min_,
        )

        criterion_kind_length.additional_properties = d
        return criterion_kind_length

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
