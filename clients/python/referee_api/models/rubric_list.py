from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.rubric_summary import RubricSummary


T = TypeVar("T", bound="RubricList")


@_attrs_define
class RubricList:
    """Every stored rubric, by id.

    Attributes:
        rubrics (list[RubricSummary]):
    """

    rubrics: list[RubricSummary]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rubrics = []
        for rubrics_item_data in self.rubrics:
            rubrics_item = rubrics_item_data.to_dict()
            rubrics.append(rubrics_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rubrics": rubrics,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rubric_summary import RubricSummary

        d = dict(src_dict)
        rubrics = []
        _rubrics = d.pop("rubrics")
        for rubrics_item_data in _rubrics:
            rubrics_item = RubricSummary.from_dict(rubrics_item_data)

            rubrics.append(rubrics_item)

        rubric_list = cls(
            rubrics=rubrics,
        )

        rubric_list.additional_properties = d
        return rubric_list

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
