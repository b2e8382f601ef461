from typing import Literal

SamplingPolicyType2Name = Literal["difficulty"]

SAMPLING_POLICY_TYPE_2_NAME_VALUES: set[SamplingPolicyType2Name] = {
    "difficulty",
}


def check_sampling_policy_type_2_name(value: str) -> SamplingPolicyType2Name:
    if value in SAMPLING_POLICY_TYPE_2_NAME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SAMPLING_POLICY_TYPE_2_NAME_VALUES!r}"
    )
