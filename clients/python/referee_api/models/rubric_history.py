from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.version_summary import VersionSummary


T = TypeVar("T", bound="RubricHistory")


@_attrs_define
class RubricHistory:
    """Every kept version of a rubric, oldest first.

    Attributes:
        id (str):
        versions (list[VersionSummary]):
    """

    id: str
    versions: list[VersionSummary]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        versions = []
        for versions_item_data in self.versions:
            versions_item = versions_item_data.to_dict()
            versions.append(versions_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "versions": versions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.version_summary import VersionSummary

        d = dict(src_dict)
        id = d.pop("id")

        versions = []
        _versions = d.pop("versions")
        for versions_item_data in _versions:
            versions_item = VersionSummary.from_dict(versions_item_data)

            versions.append(versions_item)

        rubric_history = cls(
            id=id,
            versions=versions,
        )

        rubric_history.additional_properties = d
        return rubric_history

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
