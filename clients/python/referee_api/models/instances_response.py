from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.generated_instance import GeneratedInstance


T = TypeVar("T", bound="InstancesResponse")


@_attrs_define
class InstancesResponse:
    """Reply of `POST /v1/environments/{task}/instances`.

    Attributes:
        instances (list[GeneratedInstance]): The instances, seeds `seed..seed + count` in order.
        task (str): The task id.
    """

    instances: list[GeneratedInstance]
    task: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        instances = []
        for instances_item_data in self.instances:
            instances_item = instances_item_data.to_dict()
            instances.append(instances_item)

        task = self.task

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "instances": instances,
                "task": task,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.generated_instance import GeneratedInstance

        d = dict(src_dict)
        instances = []
        _instances = d.pop("instances")
        for instances_item_data in _instances:
            instances_item = GeneratedInstance.from_dict(instances_item_data)

            instances.append(instances_item)

        task = d.pop("task")

        instances_response = cls(
            instances=instances,
            task=task,
        )

        instances_response.additional_properties = d
        return instances_response

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
