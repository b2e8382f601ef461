from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.scorer_kind import ScorerKind, check_scorer_kind

if TYPE_CHECKING:
    from ..models.verifier_availability import VerifierAvailability
    from ..models.verifier_info_input_schema import VerifierInfoInputSchema


T = TypeVar("T", bound="VerifierInfo")


@_attrs_define
class VerifierInfo:
    """One registered verifier.

    Attributes:
        availability (VerifierAvailability): Whether a verifier can judge items here.
        description (str): What it checks and how it scores.
        id (str): The id to put in an item's `verifier`.
        input_schema (VerifierInfoInputSchema): The JSON Schema of the item `input`, self-contained.
        kind (ScorerKind): How a scorer runs.
        version (str): Changes whenever a verdict for the same input may change.
    """

    availability: VerifierAvailability
    description: str
    id: str
    input_schema: VerifierInfoInputSchema
    kind: ScorerKind
    version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        availability = self.availability.to_dict()

        description = self.description

        id = self.id

        input_schema = self.input_schema.to_dict()

        kind: str = self.kind

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "availability": availability,
                "description": description,
                "id": id,
                "input_schema": input_schema,
                "kind": kind,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.verifier_availability import VerifierAvailability
        from ..models.verifier_info_input_schema import VerifierInfoInputSchema

        d = dict(src_dict)
        availability = VerifierAvailability.from_dict(d.pop("availability"))

        description = d.pop("description")

        id = d.pop("id")

        input_schema = VerifierInfoInputSchema.from_dict(d.pop("input_schema"))

        kind = check_scorer_kind(d.pop("kind"))

        version = d.pop("version")

        verifier_info = cls(
            availability=availability,
            description=description,
            id=id,
            input_schema=input_schema,
            kind=kind,
            version=version,
        )

        verifier_info.additional_properties = d
        return verifier_info

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
