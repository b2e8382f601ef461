from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pass_rate_decay_type_0 import PassRateDecayType0
    from ..models.pass_rate_decay_type_1 import PassRateDecayType1
    from ..models.pass_rate_decay_type_2 import PassRateDecayType2
    from ..models.pass_rate_decay_type_3 import PassRateDecayType3
    from ..models.sampling_policy_type_0 import SamplingPolicyType0
    from ..models.sampling_policy_type_1 import SamplingPolicyType1
    from ..models.sampling_policy_type_2 import SamplingPolicyType2


T = TypeVar("T", bound="SampleRequest")


@_attrs_define
class SampleRequest:
    """Candidate prompts and the policy to decide on them.

    Attributes:
        policy (SamplingPolicyType0 | SamplingPolicyType1 | SamplingPolicyType2): A named sampling policy over candidate
            prompts.
        prompt_ids (list[str]): The candidates (1 to 100000), answered in this order.
        decay (PassRateDecayType0 | PassRateDecayType1 | PassRateDecayType2 | PassRateDecayType3 | Unset): How older
            steps count in a pass rate. `S` is the run's latest step.
    """

    policy: SamplingPolicyType0 | SamplingPolicyType1 | SamplingPolicyType2
    prompt_ids: list[str]
    decay: (
        PassRateDecayType0
        | PassRateDecayType1
        | PassRateDecayType2
        | PassRateDecayType3
        | Unset
    ) = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.pass_rate_decay_type_0 import PassRateDecayType0
        from ..models.pass_rate_decay_type_1 import PassRateDecayType1
        from ..models.pass_rate_decay_type_2 import PassRateDecayType2
        from ..models.sampling_policy_type_0 import SamplingPolicyType0
        from ..models.sampling_policy_type_1 import SamplingPolicyType1

        policy: dict[str, Any]
        if isinstance(self.policy, SamplingPolicyType0) or isinstance(
            self.policy, SamplingPolicyType1
        ):
            policy = self.policy.to_dict()
        else:
            policy = self.policy.to_dict()

        prompt_ids = self.prompt_ids

        decay: dict[str, Any] | Unset
        if isinstance(self.decay, Unset):
            decay = UNSET
        elif (
            isinstance(self.decay, PassRateDecayType0)
            or isinstance(self.decay, PassRateDecayType1)
            or isinstance(self.decay, PassRateDecayType2)
        ):
            decay = self.decay.to_dict()
        else:
            decay = self.decay.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "policy": policy,
                "prompt_ids": prompt_ids,
            }
        )
        if decay is not UNSET:
            field_dict["decay"] = decay

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pass_rate_decay_type_0 import PassRateDecayType0
        from ..models.pass_rate_decay_type_1 import PassRateDecayType1
        from ..models.pass_rate_decay_type_2 import PassRateDecayType2
        from ..models.pass_rate_decay_type_3 import PassRateDecayType3
        from ..models.sampling_policy_type_0 import SamplingPolicyType0
        from ..models.sampling_policy_type_1 import SamplingPolicyType1
        from ..models.sampling_policy_type_2 import SamplingPolicyType2

        d = dict(src_dict)

        def _parse_policy(
            data: object,
        ) -> SamplingPolicyType0 | SamplingPolicyType1 | SamplingPolicyType2:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_sampling_policy_type_0 = (
                    SamplingPolicyType0.from_dict(data)
                )

                return componentsschemas_sampling_policy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_sampling_policy_type_1 = (
                    SamplingPolicyType1.from_dict(data)
                )

                return componentsschemas_sampling_policy_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_sampling_policy_type_2 = SamplingPolicyType2.from_dict(
                data
            )

            return componentsschemas_sampling_policy_type_2

        policy = _parse_policy(d.pop("policy"))

        prompt_ids = cast(list[str], d.pop("prompt_ids"))

        def _parse_decay(
            data: object,
        ) -> (
            PassRateDecayType0
            | PassRateDecayType1
            | PassRateDecayType2
            | PassRateDecayType3
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_pass_rate_decay_type_0 = PassRateDecayType0.from_dict(
                    data
                )

                return componentsschemas_pass_rate_decay_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_pass_rate_decay_type_1 = PassRateDecayType1.from_dict(
                    data
                )

                return componentsschemas_pass_rate_decay_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_pass_rate_decay_type_2 = PassRateDecayType2.from_dict(
                    data
                )

                return componentsschemas_pass_rate_decay_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_pass_rate_decay_type_3 = PassRateDecayType3.from_dict(
                data
            )

            return componentsschemas_pass_rate_decay_type_3

        decay = _parse_decay(d.pop("decay", UNSET))

        sample_request = cls(
            policy=policy,
            prompt_ids=prompt_ids,
            decay=decay,
        )

        return sample_request
