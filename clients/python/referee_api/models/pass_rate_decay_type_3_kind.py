from typing import Literal

PassRateDecayType3Kind = Literal["windowed_exponential"]

PASS_RATE_DECAY_TYPE_3_KIND_VALUES: set[PassRateDecayType3Kind] = {
    "windowed_exponential",
}


def check_pass_rate_decay_type_3_kind(value: str) -> PassRateDecayType3Kind:
    if value in PASS_RATE_DECAY_TYPE_3_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_RATE_DECAY_TYPE_3_KIND_VALUES!r}"
    )
