from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScoreHistogram")


@_attrs_define
class ScoreHistogram:
    """Counts of values in equal-width bins: `edges` has one more entry than `counts`; a bin holds
    values from its lower edge up to, not including, its upper edge, and the last also holds its
    upper edge.

        Attributes:
            counts (list[int]):
            edges (list[float]):
    """

    counts: list[int]
    edges: list[float]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        counts = self.counts

        edges = self.edges

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "counts": counts,
                "edges": edges,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        counts = cast(list[int], d.pop("counts"))

        edges = cast(list[float], d.pop("edges"))

        score_histogram = cls(
            counts=counts,
            edges=edges,
        )

        score_histogram.additional_properties = d
        return score_histogram

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
