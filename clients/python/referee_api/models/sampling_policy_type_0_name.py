from typing import Literal

SamplingPolicyType0Name = Literal["dapo"]

SAMPLING_POLICY_TYPE_0_NAME_VALUES: set[SamplingPolicyType0Name] = {
    "dapo",
}


def check_sampling_policy_type_0_name(value: str) -> SamplingPolicyType0Name:
    if value in SAMPLING_POLICY_TYPE_0_NAME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SAMPLING_POLICY_TYPE_0_NAME_VALUES!r}"
    )
