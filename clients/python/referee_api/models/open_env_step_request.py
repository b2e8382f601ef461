from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.open_env_step_request_action import OpenEnvStepRequestAction


T = TypeVar("T", bound="OpenEnvStepRequest")


@_attrs_define
class OpenEnvStepRequest:
    """OpenEnv's stateless step: the action, and fields OpenEnv allows besides (ignored).

    Attributes:
        action (OpenEnvStepRequestAction):
    """

    action: OpenEnvStepRequestAction
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.open_env_step_request_action import OpenEnvStepRequestAction

        d = dict(src_dict)
        action = OpenEnvStepRequestAction.from_dict(d.pop("action"))

        open_env_step_request = cls(
            action=action,
        )

        open_env_step_request.additional_properties = d
        return open_env_step_request

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
