from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.aggregation_formula import AggregationFormula
    from ..models.aggregation_weighted_mean import AggregationWeightedMean
    from ..models.criterion import Criterion


T = TypeVar("T", bound="RubricVersion")


@_attrs_define
class RubricVersion:
    """One stored version of a rubric.

    Attributes:
        aggregation (AggregationFormula | AggregationWeightedMean): How criterion scores combine into the item's score.
        created_at_ms (int): When this version was stored, in milliseconds since the Unix epoch.
        criteria (list[Criterion]):
        id (str):
        version (int): 1 for the first version; each update adds one.
        veto_floor (float):
    """

    aggregation: AggregationFormula | AggregationWeightedMean
    created_at_ms: int
    criteria: list[Criterion]
    id: str
    version: int
    veto_floor: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.aggregation_weighted_mean import AggregationWeightedMean

        aggregation: dict[str, Any]
        if isinstance(self.aggregation, AggregationWeightedMean):
            aggregation = self.aggregation.to_dict()
        else:
            aggregation = self.aggregation.to_dict()

        created_at_ms = self.created_at_ms

        criteria = []
        for criteria_item_data in self.criteria:
            criteria_item = criteria_item_data.to_dict()
            criteria.append(criteria_item)

        id = self.id

        version = self.version

        veto_floor = self.veto_floor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "aggregation": aggregation,
                "created_at_ms": created_at_ms,
                "criteria": criteria,
                "id": id,
                "version": version,
                "veto_floor": veto_floor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.aggregation_formula import AggregationFormula
        from ..models.aggregation_weighted_mean import AggregationWeightedMean
        from ..models.criterion import Criterion

        d = dict(src_dict)

        def _parse_aggregation(
            data: object,
        ) -> AggregationFormula | AggregationWeightedMean:
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

        aggregation = _parse_aggregation(d.pop("aggregation"))

        created_at_ms = d.pop("created_at_ms")

        criteria = []
        _criteria = d.pop("criteria")
        for criteria_item_data in _criteria:
            criteria_item = Criterion.from_dict(criteria_item_data)

            criteria.append(criteria_item)

        id = d.pop("id")

        version = d.pop("version")

        veto_floor = d.pop("veto_floor")

        rubric_version = cls(
            aggregation=aggregation,
            created_at_ms=created_at_ms,
            criteria=criteria,
            id=id,
            version=version,
            veto_floor=veto_floor,
        )

        rubric_version.additional_properties = d
        return rubric_version

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
