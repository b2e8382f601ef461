from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.noise_status import NoiseStatus


T = TypeVar("T", bound="NoiseList")


@_attrs_define
class NoiseList:
    """Every noise model of the verifiers this server runs.

    Attributes:
        appeals_outstanding (int): Verdicts this replica sampled for appeal whose outcome is not yet in the counts
            above:
            queued, being re-checked, or re-checked and waiting for the next write.
        models (list[NoiseStatus]):
    """

    appeals_outstanding: int
    models: list[NoiseStatus]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        appeals_outstanding = self.appeals_outstanding

        models = []
        for models_item_data in self.models:
            models_item = models_item_data.to_dict()
            models.append(models_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "appeals_outstanding": appeals_outstanding,
                "models": models,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.noise_status import NoiseStatus

        d = dict(src_dict)
        appeals_outstanding = d.pop("appeals_outstanding")

        models = []
        _models = d.pop("models")
        for models_item_data in _models:
            models_item = NoiseStatus.from_dict(models_item_data)

            models.append(models_item)

        noise_list = cls(
            appeals_outstanding=appeals_outstanding,
            models=models,
        )

        noise_list.additional_properties = d
        return noise_list

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
