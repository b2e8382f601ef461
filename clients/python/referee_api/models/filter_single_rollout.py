from typing import Literal

FilterSingleRollout = Literal["drop", "std_one"]

FILTER_SINGLE_ROLLOUT_VALUES: set[FilterSingleRollout] = {
    "drop",
    "std_one",
}


def check_filter_single_rollout(value: str) -> FilterSingleRollout:
    if value in FILTER_SINGLE_ROLLOUT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {FILTER_SINGLE_ROLLOUT_VALUES!r}"
    )
