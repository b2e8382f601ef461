from typing import Literal

SingleRollout = Literal["drop", "std_one"]

SINGLE_ROLLOUT_VALUES: set[SingleRollout] = {
    "drop",
    "std_one",
}


def check_single_rollout(value: str) -> SingleRollout:
    if value in SINGLE_ROLLOUT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SINGLE_ROLLOUT_VALUES!r}"
    )
