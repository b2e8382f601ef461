from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.verifier_info import VerifierInfo


T = TypeVar("T", bound="VerifierList")


@_attrs_define
class VerifierList:
    """Every registered verifier.

    Attributes:
        verifiers (list[VerifierInfo]):
    """

    verifiers: list[VerifierInfo]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        verifiers = []
        for verifiers_item_data in self.verifiers:
            verifiers_item = verifiers_item_data.to_dict()
            verifiers.append(verifiers_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "verifiers": verifiers,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.verifier_info import VerifierInfo

        d = dict(src_dict)
        verifiers = []
        _verifiers = d.pop("verifiers")
        for verifiers_item_data in _verifiers:
            verifiers_item = VerifierInfo.from_dict(verifiers_item_data)

            verifiers.append(verifiers_item)

        verifier_list = cls(
            verifiers=verifiers,
        )

        verifier_list.additional_properties = d
        return verifier_list

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
