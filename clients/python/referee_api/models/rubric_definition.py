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


T = TypeVar("T", bound="RubricDefinition")


@_attrs_define
class RubricDefinition:
    """A rubric without its id and version: the criteria, the aggregation and the veto floor.

    Sent inline with an item (`rubric`), or stored and managed through `/v1/rubrics` and named
    by `rubric_id` (and optionally `rubric_version`).

        Attributes:
            criteria (list[Criterion]): The criteria, each with a unique name. 1 to 64 of them.
            aggregation (AggregationFormula | AggregationWeightedMean | Unset): How criterion scores combine into the item's
                score.
            veto_floor (float | Unset): The score of an item that fails a veto criterion (default 0).
    """

    criteria: list[Criterion]
    aggregation: AggregationFormula | AggregationWeightedMean | Unset = UNSET
    veto_floor: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.aggregation_weighted_mean import AggregationWeightedMean

        criteria = []
        for criteria_item_data in self.criteria:
            criteria_item = criteria_item_data.to_dict()
            criteria.append(criteria_item)

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

        rubric_definition = cls(
            criteria=criteria,
            aggregation=aggregation,
            veto_floor=veto_floor,
        )

        return rubric_definition
