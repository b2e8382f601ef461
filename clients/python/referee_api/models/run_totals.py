from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.verifier_totals import VerifierTotals


T = TypeVar("T", bound="RunTotals")


@_attrs_define
class RunTotals:
    """One run of a comparison.

    Attributes:
        run (str):
        verifiers (list[VerifierTotals]):
    """

    run: str
    verifiers: list[VerifierTotals]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        run = self.run

        verifiers = []
        for verifiers_item_data in self.verifiers:
            verifiers_item = verifiers_item_data.to_dict()
            verifiers.append(verifiers_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "run": run,
                "verifiers": verifiers,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.verifier_totals import VerifierTotals

        d = dict(src_dict)
        run = d.pop("run")

        verifiers = []
        _verifiers = d.pop("verifiers")
        for verifiers_item_data in _verifiers:
            verifiers_item = VerifierTotals.from_dict(verifiers_item_data)

            verifiers.append(verifiers_item)

        run_totals = cls(
            run=run,
            verifiers=verifiers,
        )

        run_totals.additional_properties = d
        return run_totals

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
