from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.language_availability import LanguageAvailability


T = TypeVar("T", bound="VerifierStatus")


@_attrs_define
class VerifierStatus:
    """One verifier's availability in `/readyz?verbose`.

    Attributes:
        available (bool): False only when none of its languages is available or unchecked.
        id (str): The verifier's id.
        languages (list[LanguageAvailability] | Unset): Per language, for verifiers that run programs (`code`).
    """

    available: bool
    id: str
    languages: list[LanguageAvailability] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        available = self.available

        id = self.id

        languages: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.languages, Unset):
            languages = []
            for languages_item_data in self.languages:
                languages_item = languages_item_data.to_dict()
                languages.append(languages_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "available": available,
                "id": id,
            }
        )
        if languages is not UNSET:
            field_dict["languages"] = languages

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.language_availability import LanguageAvailability

        d = dict(src_dict)
        available = d.pop("available")

        id = d.pop("id")

        _languages = d.pop("languages", UNSET)
        languages: list[LanguageAvailability] | Unset = UNSET
        if _languages is not UNSET:
            languages = []
            for languages_item_data in _languages:
                languages_item = LanguageAvailability.from_dict(languages_item_data)

                languages.append(languages_item)

        verifier_status = cls(
            available=available,
            id=id,
            languages=languages,
        )

        verifier_status.additional_properties = d
        return verifier_status

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
