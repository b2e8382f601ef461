from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.aggregation_formula_type import (
    AggregationFormulaType,
    check_aggregation_formula_type,
)

T = TypeVar("T", bound="AggregationFormula")


@_attrs_define
class AggregationFormula:
    """A formula over the criterion names with `+ - * /`, parentheses, numbers and the
    functions `min max abs clip exp log sqrt`, e.g. `0.7 * clarity + 0.3 * min(tone, 1)`.

        Attributes:
            formula (str):
            type_ (AggregationFormulaType):
    """

    formula: str
    type_: AggregationFormulaType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        formula = self.formula

        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "formula": formula,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        formula = d.pop("formula")

        type_ = check_aggregation_formula_type(d.pop("type"))

        aggregation_formula = cls(
            formula=formula,
            type_=type_,
        )

        aggregation_formula.additional_properties = d
        return aggregation_formula

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
