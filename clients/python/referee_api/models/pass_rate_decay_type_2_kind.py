from typing import Literal

PassRateDecayType2Kind = Literal["exponential"]

PASS_RATE_DECAY_TYPE_2_KIND_VALUES: set[PassRateDecayType2Kind] = {
    "exponential",
}


def check_pass_rate_decay_type_2_kind(value: str) -> PassRateDecayType2Kind:
    if value in PASS_RATE_DECAY_TYPE_2_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_RATE_DECAY_TYPE_2_KIND_VALUES!r}"
    )
