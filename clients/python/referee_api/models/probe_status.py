from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.verifier_status import VerifierStatus


T = TypeVar("T", bound="ProbeStatus")


@_attrs_define
class ProbeStatus:
    """A probe's answer.

    Attributes:
        status (str): `ok` or `ready`.
        verifiers (list[VerifierStatus] | None | Unset): With `/readyz?verbose`: every verifier, and for `code` each
            language, available or not
            and why (the same as `GET /v1/verifiers` reports).
    """

    status: str
    verifiers: list[VerifierStatus] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        verifiers: list[dict[str, Any]] | None | Unset
        if isinstance(self.verifiers, Unset):
            verifiers = UNSET
        elif isinstance(self.verifiers, list):
            verifiers = []
            for verifiers_type_0_item_data in self.verifiers:
                verifiers_type_0_item = verifiers_type_0_item_data.to_dict()
                verifiers.append(verifiers_type_0_item)

        else:
            verifiers = self.verifiers

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
            }
        )
        if verifiers is not UNSET:
            field_dict["verifiers"] = verifiers

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.verifier_status import VerifierStatus

        d = dict(src_dict)
        status = d.pop("status")

        def _parse_verifiers(data: object) -> list[VerifierStatus] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                verifiers_type_0 = []
                _verifiers_type_0 = data
                for verifiers_type_0_item_data in _verifiers_type_0:
                    verifiers_type_0_item = VerifierStatus.from_dict(
                        verifiers_type_0_item_data
                    )

                    verifiers_type_0.append(verifiers_type_0_item)

                return verifiers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[VerifierStatus] | None | Unset, data)

        verifiers = _parse_verifiers(d.pop("verifiers", UNSET))

        probe_status = cls(
            status=status,
            verifiers=verifiers,
        )

        probe_status.additional_properties = d
        return probe_status

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
