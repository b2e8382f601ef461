from typing import Literal

PassRateDecayType1Kind = Literal["window"]

PASS_RATE_DECAY_TYPE_1_KIND_VALUES: set[PassRateDecayType1Kind] = {
    "window",
}


def check_pass_rate_decay_type_1_kind(value: str) -> PassRateDecayType1Kind:
    if value in PASS_RATE_DECAY_TYPE_1_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_RATE_DECAY_TYPE_1_KIND_VALUES!r}"
    )
