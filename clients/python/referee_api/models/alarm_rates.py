from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AlarmRates")


@_attrs_define
class AlarmRates:
    """The rates of the statuses that signal a broken verifier (`internal_error`, `timeout`) or a
    collapsed output format (`unparseable`), as fractions of the items.

        Attributes:
            internal_error (float):
            timeout (float):
            unparseable (float):
    """

    internal_error: float
    timeout: float
    unparseable: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        internal_error = self.internal_error

        timeout = self.timeout

        unparseable = self.unparseable

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "internal_error": internal_error,
                "timeout": timeout,
                "unparseable": unparseable,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        internal_error = d.pop("internal_error")

        timeout = d.pop("timeout")

        unparseable = d.pop("unparseable")

        alarm_rates = cls(
            internal_error=internal_error,
            timeout=timeout,
            unparseable=unparseable,
        )

        alarm_rates.additional_properties = d
        return alarm_rates

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
