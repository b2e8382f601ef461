from typing import Literal

PassRateDecayType0Kind = Literal["none"]

PASS_RATE_DECAY_TYPE_0_KIND_VALUES: set[PassRateDecayType0Kind] = {
    "none",
}


def check_pass_rate_decay_type_0_kind(value: str) -> PassRateDecayType0Kind:
    if value in PASS_RATE_DECAY_TYPE_0_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_RATE_DECAY_TYPE_0_KIND_VALUES!r}"
    )
