from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.stored_step_action_type_0 import StoredStepActionType0
    from ..models.stored_step_observation import StoredStepObservation


T = TypeVar("T", bound="StoredStep")


@_attrs_define
class StoredStep:
    """One step of a transcript; turn 0 is the first observation.

    Attributes:
        at_ms (int):
        done (bool):
        elapsed_us (int): Time the environment took, in microseconds.
        observation (StoredStepObservation):
        reward (float):
        turn (int):
        action (None | StoredStepActionType0 | Unset): The action (absent for turn 0).
    """

    at_ms: int
    done: bool
    elapsed_us: int
    observation: StoredStepObservation
    reward: float
    turn: int
    action: None | StoredStepActionType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.stored_step_action_type_0 import StoredStepActionType0

        at_ms = self.at_ms

        done = self.done

        elapsed_us = self.elapsed_us

        observation = self.observation.to_dict()

        reward = self.reward

        turn = self.turn

        action: dict[str, Any] | None | Unset
        if isinstance(self.action, Unset):
            action = UNSET
        elif isinstance(self.action, StoredStepActionType0):
            action = self.action.to_dict()
        else:
            action = self.action

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at_ms": at_ms,
                "done": done,
                "elapsed_us": elapsed_us,
                "observation": observation,
                "reward": reward,
                "turn": turn,
            }
        )
        if action is not UNSET:
            field_dict["action"] = action

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.stored_step_action_type_0 import StoredStepActionType0
        from ..models.stored_step_observation import StoredStepObservation

        d = dict(src_dict)
        at_ms = d.pop("at_ms")

        done = d.pop("done")

        elapsed_us = d.pop("elapsed_us")

        observation = StoredStepObservation.from_dict(d.pop("observation"))

        reward = d.pop("reward")

        turn = d.pop("turn")

        def _parse_action(data: object) -> None | StoredStepActionType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                action_type_0 = StoredStepActionType0.from_dict(data)

                return action_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StoredStepActionType0 | Unset, data)

        action = _parse_action(d.pop("action", UNSET))

        stored_step = cls(
            at_ms=at_ms,
            done=done,
            elapsed_us=elapsed_us,
            observation=observation,
            reward=reward,
            turn=turn,
            action=action,
        )

        stored_step.additional_properties = d
        return stored_step

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
