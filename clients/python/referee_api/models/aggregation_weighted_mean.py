from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.aggregation_weighted_mean_type import (
    AggregationWeightedMeanType,
    check_aggregation_weighted_mean_type,
)

T = TypeVar("T", bound="AggregationWeightedMean")


@_attrs_define
class AggregationWeightedMean:
    """Σ weight·score / Σ weight over the criteria.

    Attributes:
        type_ (AggregationWeightedMeanType):
    """

    type_: AggregationWeightedMeanType
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
        type_ = check_aggregation_weighted_mean_type(d.pop("type"))

        aggregation_weighted_mean = cls(
            type_=type_,
        )

        aggregation_weighted_mean.additional_properties = d
        return aggregation_weighted_mean

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
