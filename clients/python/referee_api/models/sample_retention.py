from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SampleRetention")


@_attrs_define
class SampleRetention:
    """The text retention settings in force, as a sample list reports them.

    Attributes:
        alarm_rate (float): The share of items with an alarm status kept (`runs.samples.alarm_rate`).
        max_text_bytes (int): The cap on each kept text, in bytes.
        rate (float): The share of recorded items kept with their text (`runs.samples.rate`); with it and
            `alarm_rate` at 0, nothing is kept.
    """

    alarm_rate: float
    max_text_bytes: int
    rate: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        alarm_rate = self.alarm_rate

        max_text_bytes = self.max_text_bytes

        rate = self.rate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "alarm_rate": alarm_rate,
                "max_text_bytes": max_text_bytes,
                "rate": rate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        alarm_rate = d.pop("alarm_rate")

        max_text_bytes = d.pop("max_text_bytes")

        rate = d.pop("rate")

        sample_retention = cls(
            alarm_rate=alarm_rate,
            max_text_bytes=max_text_bytes,
            rate=rate,
        )

        sample_retention.additional_properties = d
        return sample_retention

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
