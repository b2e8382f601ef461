from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.reward_mode import RewardMode, check_reward_mode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.np_input_instance_type_0 import NpInputInstanceType0
    from ..models.reference import Reference


T = TypeVar("T", bound="NpInput")


@_attrs_define
class NpInput:
    """Scores a response to one NP environment instance.

    Give the instance either inline (`instance`, optionally with the `reference` that
    generation returned) or as `level` + `seed`, which regenerates it exactly. The answer is
    taken from the response after the last `</think>`: the last `<answer>...</answer>`, else the
    last `Answer:` line, else (lenient parsing only) the last fenced block or the last bracketed
    structure. It is tokenised, never evaluated.

        Attributes:
            response (str): The model's full response text.
            task (str): Task id, as listed by `GET /v1/environments` (e.g. `"tsp"`).
            infeasible_reward (float | None | Unset): `quality` reward for an answer that parses but is infeasible, in [0,
                1]. Default 0.1.
            instance (None | NpInputInstanceType0 | Unset): The instance as JSON, as returned by instance generation.
                Alternative to `level` + `seed`.
            level (int | None | Unset): Difficulty level; with `seed`, regenerates the instance instead of passing it.
            reference (None | Reference | Unset):
            reward_mode (RewardMode | Unset): How a verdict's score is computed from the judged answer.
            seed (int | None | Unset): Generation seed; with `level`, regenerates the instance.
            strict (bool | Unset): Strict parsing: require an `<answer>` tag or `Answer:` marker and exactly one structure
                after it. Default lenient.
    """

    response: str
    task: str
    infeasible_reward: float | None | Unset = UNSET
    instance: None | NpInputInstanceType0 | Unset = UNSET
    level: int | None | Unset = UNSET
    reference: None | Reference | Unset = UNSET
    reward_mode: RewardMode | Unset = UNSET
    seed: int | None | Unset = UNSET
    strict: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.np_input_instance_type_0 import NpInputInstanceType0
        from ..models.reference import Reference

        response = self.response

        task = self.task

        infeasible_reward: float | None | Unset
        if isinstance(self.infeasible_reward, Unset):
            infeasible_reward = UNSET
        else:
            infeasible_reward = self.infeasible_reward

        instance: dict[str, Any] | None | Unset
        if isinstance(self.instance, Unset):
            instance = UNSET
        elif isinstance(self.instance, NpInputInstanceType0):
            instance = self.instance.to_dict()
        else:
            instance = self.instance

        level: int | None | Unset
        if isinstance(self.level, Unset):
            level = UNSET
        else:
            level = self.level

        reference: dict[str, Any] | None | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        elif isinstance(self.reference, Reference):
            reference = self.reference.to_dict()
        else:
            reference = self.reference

        reward_mode: str | Unset = UNSET
        if not isinstance(self.reward_mode, Unset):
            reward_mode = self.reward_mode

        seed: int | None | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        strict = self.strict

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "response": response,
                "task": task,
            }
        )
        if infeasible_reward is not UNSET:
            field_dict["infeasible_reward"] = infeasible_reward
        if instance is not UNSET:
            field_dict["instance"] = instance
        if level is not UNSET:
            field_dict["level"] = level
        if reference is not UNSET:
            field_dict["reference"] = reference
        if reward_mode is not UNSET:
            field_dict["reward_mode"] = reward_mode
        if seed is not UNSET:
            field_dict["seed"] = seed
        if strict is not UNSET:
            field_dict["strict"] = strict

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.np_input_instance_type_0 import NpInputInstanceType0
        from ..models.reference import Reference

        d = dict(src_dict)
        response = d.pop("response")

        task = d.pop("task")

        def _parse_infeasible_reward(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        infeasible_reward = _parse_infeasible_reward(d.pop("infeasible_reward", UNSET))

        def _parse_instance(data: object) -> None | NpInputInstanceType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                instance_type_0 = NpInputInstanceType0.from_dict(data)

                return instance_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | NpInputInstanceType0 | Unset, data)

        instance = _parse_instance(d.pop("instance", UNSET))

        def _parse_level(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        level = _parse_level(d.pop("level", UNSET))

        def _parse_reference(data: object) -> None | Reference | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reference_type_0 = Reference.from_dict(data)

                return reference_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Reference | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        _reward_mode = d.pop("reward_mode", UNSET)
        reward_mode: RewardMode | Unset
        if isinstance(_reward_mode, Unset):
            reward_mode = UNSET
        else:
            reward_mode = check_reward_mode(_reward_mode)

        def _parse_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        strict = d.pop("strict", UNSET)

        np_input = cls(
            response=response,
            task=task,
            infeasible_reward=infeasible_reward,
            instance=instance,
            level=level,
            reference=reference,
            reward_mode=reward_mode,
            seed=seed,
            strict=strict,
        )

        return np_input
