from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.normalisation import Normalisation, check_normalisation
from ..models.reward_basis import RewardBasis, check_reward_basis
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.group_advantages import GroupAdvantages
    from ..models.noise_model import NoiseModel


T = TypeVar("T", bound="AdvantageResponse")


@_attrs_define
class AdvantageResponse:
    """The advantages of every group, in request order.

    Attributes:
        groups (list[GroupAdvantages]): One entry per group.
        normalisation (Normalisation): How rewards are turned into advantages within a group.
        reward (RewardBasis): Which per-rollout value the advantages are computed from.
        noise (NoiseModel | None | Unset):
    """

    groups: list[GroupAdvantages]
    normalisation: Normalisation
    reward: RewardBasis
    noise: NoiseModel | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.noise_model import NoiseModel

        groups = []
        for groups_item_data in self.groups:
            groups_item = groups_item_data.to_dict()
            groups.append(groups_item)

        normalisation: str = self.normalisation

        reward: str = self.reward

        noise: dict[str, Any] | None | Unset
        if isinstance(self.noise, Unset):
            noise = UNSET
        elif isinstance(self.noise, NoiseModel):
            noise = self.noise.to_dict()
        else:
            noise = self.noise

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "groups": groups,
                "normalisation": normalisation,
                "reward": reward,
            }
        )
        if noise is not UNSET:
            field_dict["noise"] = noise

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.group_advantages import GroupAdvantages
        from ..models.noise_model import NoiseModel

        d = dict(src_dict)
        groups = []
        _groups = d.pop("groups")
        for groups_item_data in _groups:
            groups_item = GroupAdvantages.from_dict(groups_item_data)

            groups.append(groups_item)

        normalisation = check_normalisation(d.pop("normalisation"))

        reward = check_reward_basis(d.pop("reward"))

        def _parse_noise(data: object) -> NoiseModel | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                noise_type_0 = NoiseModel.from_dict(data)

                return noise_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NoiseModel | None | Unset, data)

        noise = _parse_noise(d.pop("noise", UNSET))

        advantage_response = cls(
            groups=groups,
            normalisation=normalisation,
            reward=reward,
            noise=noise,
        )

        advantage_response.additional_properties = d
        return advantage_response

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
