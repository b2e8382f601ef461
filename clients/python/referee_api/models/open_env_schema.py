from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.open_env_schema_action import OpenEnvSchemaAction
    from ..models.open_env_schema_observation import OpenEnvSchemaObservation
    from ..models.open_env_schema_state import OpenEnvSchemaState


T = TypeVar("T", bound="OpenEnvSchema")


@_attrs_define
class OpenEnvSchema:
    """OpenEnv's schemas of an environment: its action, observation and state.

    Attributes:
        action (OpenEnvSchemaAction):
        observation (OpenEnvSchemaObservation):
        state (OpenEnvSchemaState):
    """

    action: OpenEnvSchemaAction
    observation: OpenEnvSchemaObservation
    state: OpenEnvSchemaState
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action.to_dict()

        observation = self.observation.to_dict()

        state = self.state.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "observation": observation,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.open_env_schema_action import OpenEnvSchemaAction
        from ..models.open_env_schema_observation import OpenEnvSchemaObservation
        from ..models.open_env_schema_state import OpenEnvSchemaState

        d = dict(src_dict)
        action = OpenEnvSchemaAction.from_dict(d.pop("action"))

        observation = OpenEnvSchemaObservation.from_dict(d.pop("observation"))

        state = OpenEnvSchemaState.from_dict(d.pop("state"))

        open_env_schema = cls(
            action=action,
            observation=observation,
            state=state,
        )

        open_env_schema.additional_properties = d
        return open_env_schema

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
