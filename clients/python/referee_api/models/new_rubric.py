from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.aggregation_formula import AggregationFormula
    from ..models.aggregation_weighted_mean import AggregationWeightedMean
    from ..models.criterion import Criterion


T = TypeVar("T", bound="NewRubric")


@_attrs_define
class NewRubric:
    """A rubric to store under a new id.

    Attributes:
        criteria (list[Criterion]): The criteria, each with a unique name. 1 to 64 of them.
        id (str): The id items name it by: letters, digits, `.`, `_` and `-`, starting with a letter or
            digit, at most 128 characters.
        aggregation (AggregationFormula | AggregationWeightedMean | Unset): How criterion scores combine into the item's
            score.
        veto_floor (float | Unset): The score of an item that fails a veto criterion (default 0).
    """

    criteria: list[Criterion]
    id: str
    aggregation: AggregationFormula | AggregationWeightedMean | Unset = UNSET
    veto_floor: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.aggregation_weighted_mean import AggregationWeightedMean

        criteria = []
        for criteria_item_data in self.criteria:
            criteria_item = criteria_item_data.to_dict()
            criteria.append(criteria_item)

        id = self.id

        aggregation: dict[str, Any] | Unset
        if isinstance(self.aggregation, Unset):
            aggregation = UNSET
        elif isinstance(self.aggregation, AggregationWeightedMean):
            aggregation = self.aggregation.to_dict()
        else:
            aggregation = self.aggregation.to_dict()

        veto_floor = self.veto_floor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "criteria": criteria,
                "id": id,
            }
        )
        if aggregation is not UNSET:
            field_dict["aggregation"] = aggregation
        if veto_floor is not UNSET:
            field_dict["veto_floor"] = veto_floor

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.aggregation_formula import AggregationFormula
        from ..models.aggregation_weighted_mean import AggregationWeightedMean
        from ..models.criterion import Criterion

        d = dict(src_dict)
        criteria = []
        _criteria = d.pop("criteria")
        for criteria_item_data in _criteria:
            criteria_item = Criterion.from_dict(criteria_item_data)

            criteria.append(criteria_item)

        id = d.pop("id")

        def _parse_aggregation(
            data: object,
        ) -> AggregationFormula | AggregationWeightedMean | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_aggregation_type_0 = (
                    AggregationWeightedMean.from_dict(data)
                )

                return componentsschemas_aggregation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_aggregation_type_1 = AggregationFormula.from_dict(data)

            return componentsschemas_aggregation_type_1

        aggregation = _parse_aggregation(d.pop("aggregation", UNSET))

        veto_floor = d.pop("veto_floor", UNSET)

        new_rubric = cls(
            criteria=criteria,
            id=id,
            aggregation=aggregation,
            veto_floor=veto_floor,
        )

        return new_rubric
