from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.overturn import Overturn


T = TypeVar("T", bound="OverturnList")


@_attrs_define
class OverturnList:
    """Recent overturns, newest first.

    Attributes:
        overturns (list[Overturn]):
    """

    overturns: list[Overturn]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        overturns = []
        for overturns_item_data in self.overturns:
            overturns_item = overturns_item_data.to_dict()
            overturns.append(overturns_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "overturns": overturns,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.overturn import Overturn

        d = dict(src_dict)
        overturns = []
        _overturns = d.pop("overturns")
        for overturns_item_data in _overturns:
            overturns_item = Overturn.from_dict(overturns_item_data)

            overturns.append(overturns_item)

        overturn_list = cls(
            overturns=overturns,
        )

        overturn_list.additional_properties = d
        return overturn_list

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
