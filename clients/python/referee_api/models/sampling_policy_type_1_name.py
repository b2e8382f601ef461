from typing import Literal

SamplingPolicyType1Name = Literal["band"]

SAMPLING_POLICY_TYPE_1_NAME_VALUES: set[SamplingPolicyType1Name] = {
    "band",
}


def check_sampling_policy_type_1_name(value: str) -> SamplingPolicyType1Name:
    if value in SAMPLING_POLICY_TYPE_1_NAME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SAMPLING_POLICY_TYPE_1_NAME_VALUES!r}"
    )
