from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.open_env_result_observation import OpenEnvResultObservation


T = TypeVar("T", bound="OpenEnvResult")


@_attrs_define
class OpenEnvResult:
    """OpenEnv's answer to a reset or a step.

    Attributes:
        done (bool):
        observation (OpenEnvResultObservation):
        reward (float | None | Unset):
    """

    done: bool
    observation: OpenEnvResultObservation
    reward: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        done = self.done

        observation = self.observation.to_dict()

        reward: float | None | Unset
        if isinstance(self.reward, Unset):
            reward = UNSET
        else:
            reward = self.reward

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "done": done,
                "observation": observation,
            }
        )
        if reward is not UNSET:
            field_dict["reward"] = reward

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.open_env_result_observation import OpenEnvResultObservation

        d = dict(src_dict)
        done = d.pop("done")

        observation = OpenEnvResultObservation.from_dict(d.pop("observation"))

        def _parse_reward(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        reward = _parse_reward(d.pop("reward", UNSET))

        open_env_result = cls(
            done=done,
            observation=observation,
            reward=reward,
        )

        open_env_result.additional_properties = d
        return open_env_result

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
