from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.environment_entry_action_schema import EnvironmentEntryActionSchema
    from ..models.environment_entry_options_schema import EnvironmentEntryOptionsSchema


T = TypeVar("T", bound="EnvironmentEntry")


@_attrs_define
class EnvironmentEntry:
    """One environment episodes start from.

    Attributes:
        action_schema (EnvironmentEntryActionSchema): The JSON schema of one action.
        id (str):
        options_schema (EnvironmentEntryOptionsSchema): The JSON schema of the options.
        summary (str):
        version (str):
    """

    action_schema: EnvironmentEntryActionSchema
    id: str
    options_schema: EnvironmentEntryOptionsSchema
    summary: str
    version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action_schema = self.action_schema.to_dict()

        id = self.id

        options_schema = self.options_schema.to_dict()

        summary = self.summary

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action_schema": action_schema,
                "id": id,
                "options_schema": options_schema,
                "summary": summary,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.environment_entry_action_schema import (
            EnvironmentEntryActionSchema,
        )
        from ..models.environment_entry_options_schema import (
            EnvironmentEntryOptionsSchema,
        )

        d = dict(src_dict)
        action_schema = EnvironmentEntryActionSchema.from_dict(d.pop("action_schema"))

        id = d.pop("id")

        options_schema = EnvironmentEntryOptionsSchema.from_dict(
            d.pop("options_schema")
        )

        summary = d.pop("summary")

        version = d.pop("version")

        environment_entry = cls(
            action_schema=action_schema,
            id=id,
            options_schema=options_schema,
            summary=summary,
            version=version,
        )

        environment_entry.additional_properties = d
        return environment_entry

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
