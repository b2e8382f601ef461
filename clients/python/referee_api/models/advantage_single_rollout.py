from typing import Literal

AdvantageSingleRollout = Literal["verl", "zero"]

ADVANTAGE_SINGLE_ROLLOUT_VALUES: set[AdvantageSingleRollout] = {
    "verl",
    "zero",
}


def check_advantage_single_rollout(value: str) -> AdvantageSingleRollout:
    if value in ADVANTAGE_SINGLE_ROLLOUT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADVANTAGE_SINGLE_ROLLOUT_VALUES!r}"
    )
