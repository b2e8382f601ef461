from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BootstrapInterval")


@_attrs_define
class BootstrapInterval:
    """A point estimate with its percentile-bootstrap 95% interval.

    Attributes:
        estimate (float):
        lower (float): The 2.5th percentile of the bootstrap distribution.
        upper (float): The 97.5th percentile of the bootstrap distribution.
    """

    estimate: float
    lower: float
    upper: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        estimate = self.estimate

        lower = self.lower

        upper = self.upper

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "estimate": estimate,
                "lower": lower,
                "upper": upper,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        estimate = d.pop("estimate")

        lower = d.pop("lower")

        upper = d.pop("upper")

        bootstrap_interval = cls(
            estimate=estimate,
            lower=lower,
            upper=upper,
        )

        bootstrap_interval.additional_properties = d
        return bootstrap_interval

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
