from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.advantage_single_rollout import (
    AdvantageSingleRollout,
    check_advantage_single_rollout,
)
from ..models.normalisation import Normalisation, check_normalisation
from ..models.reward_basis import RewardBasis, check_reward_basis
from ..models.std_estimator import StdEstimator, check_std_estimator
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.reward_group import RewardGroup


T = TypeVar("T", bound="AdvantageRequest")


@_attrs_define
class AdvantageRequest:
    """Rewards grouped by prompt, and how to turn them into advantages.

    Attributes:
        groups (list[RewardGroup]): The groups.
        epsilon (float | Unset): Added to the std before dividing; verl uses 1e-6, TRL 1e-4.
        label (None | str | Unset): The task/source label of that noise model; the verifier-wide model when absent.
        normalisation (Normalisation | Unset): How rewards are turned into advantages within a group.
        reward (RewardBasis | Unset): Which per-rollout value the advantages are computed from.
        single_rollout (AdvantageSingleRollout | Unset): What a group of one rollout gets: it has no spread to estimate
            (and N − 1 = 0).
        std_estimator (StdEstimator | Unset): Which standard deviation a group reports and divides by.
        verifier (None | str | Unset): The verifier whose noise model corrects the rewards; required unless `reward` is
            `raw`.
    """

    groups: list[RewardGroup]
    epsilon: float | Unset = UNSET
    label: None | str | Unset = UNSET
    normalisation: Normalisation | Unset = UNSET
    reward: RewardBasis | Unset = UNSET
    single_rollout: AdvantageSingleRollout | Unset = UNSET
    std_estimator: StdEstimator | Unset = UNSET
    verifier: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        groups = []
        for groups_item_data in self.groups:
            groups_item = groups_item_data.to_dict()
            groups.append(groups_item)

        epsilon = self.epsilon

        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        normalisation: str | Unset = UNSET
        if not isinstance(self.normalisation, Unset):
            normalisation = self.normalisation

        reward: str | Unset = UNSET
        if not isinstance(self.reward, Unset):
            reward = self.reward

        single_rollout: str | Unset = UNSET
        if not isinstance(self.single_rollout, Unset):
            single_rollout = self.single_rollout

        std_estimator: str | Unset = UNSET
        if not isinstance(self.std_estimator, Unset):
            std_estimator = self.std_estimator

        verifier: None | str | Unset
        if isinstance(self.verifier, Unset):
            verifier = UNSET
        else:
            verifier = self.verifier

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "groups": groups,
            }
        )
        if epsilon is not UNSET:
            field_dict["epsilon"] = epsilon
        if label is not UNSET:
            field_dict["label"] = label
        if normalisation is not UNSET:
            field_dict["normalisation"] = normalisation
        if reward is not UNSET:
            field_dict["reward"] = reward
        if single_rollout is not UNSET:
            field_dict["single_rollout"] = single_rollout
        if std_estimator is not UNSET:
            field_dict["std_estimator"] = std_estimator
        if verifier is not UNSET:
            field_dict["verifier"] = verifier

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.reward_group import RewardGroup

        d = dict(src_dict)
        groups = []
        _groups = d.pop("groups")
        for groups_item_data in _groups:
            groups_item = RewardGroup.from_dict(groups_item_data)

            groups.append(groups_item)

        epsilon = d.pop("epsilon", UNSET)

        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        _normalisation = d.pop("normalisation", UNSET)
        normalisation: Normalisation | Unset
        if isinstance(_normalisation, Unset):
            normalisation = UNSET
        else:
            normalisation = check_normalisation(_normalisation)

        _reward = d.pop("reward", UNSET)
        reward: RewardBasis | Unset
        if isinstance(_reward, Unset):
            reward = UNSET
        else:
            reward = check_reward_basis(_reward)

        _single_rollout = d.pop("single_rollout", UNSET)
        single_rollout: AdvantageSingleRollout | Unset
        if isinstance(_single_rollout, Unset):
            single_rollout = UNSET
        else:
            single_rollout = check_advantage_single_rollout(_single_rollout)

        _std_estimator = d.pop("std_estimator", UNSET)
        std_estimator: StdEstimator | Unset
        if isinstance(_std_estimator, Unset):
            std_estimator = UNSET
        else:
            std_estimator = check_std_estimator(_std_estimator)

        def _parse_verifier(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        verifier = _parse_verifier(d.pop("verifier", UNSET))

        advantage_request = cls(
            groups=groups,
            epsilon=epsilon,
            label=label,
            normalisation=normalisation,
            reward=reward,
            single_rollout=single_rollout,
            std_estimator=std_estimator,
            verifier=verifier,
        )

        return advantage_request
