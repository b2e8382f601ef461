from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_similarity_type import (
    CriterionKindSimilarityType,
    check_criterion_kind_similarity_type,
)
from ..models.similarity_metric import SimilarityMetric, check_similarity_metric
from ..types import UNSET, Unset

T = TypeVar("T", bound="CriterionKindSimilarity")


@_attrs_define
class CriterionKindSimilarity:
    """Similarity to a reference text, in [0, 1].

    Attributes:
        metric (SimilarityMetric): A text-similarity metric.
        type_ (CriterionKindSimilarityType):
        reference (None | str | Unset): The reference; the item's `reference` when absent.
    """

    metric: SimilarityMetric
    type_: CriterionKindSimilarityType
    reference: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        metric: str = self.metric

        type_: str = self.type_

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "metric": metric,
                "type": type_,
            }
        )
        if reference is not UNSET:
            field_dict["reference"] = reference

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        metric = check_similarity_metric(d.pop("metric"))

        type_ = check_criterion_kind_similarity_type(d.pop("type"))

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        criterion_kind_similarity = cls(
            metric=metric,
            type_=type_,
            reference=reference,
        )

        criterion_kind_similarity.additional_properties = d
        return criterion_kind_similarity

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
