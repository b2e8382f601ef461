from typing import Literal

RewardMode = Literal["binary", "forge", "quality", "ratio"]

REWARD_MODE_VALUES: set[RewardMode] = {
    "binary",
    "forge",
    "quality",
    "ratio",
}


def check_reward_mode(value: str) -> RewardMode:
    if value in REWARD_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REWARD_MODE_VALUES!r}"
    )
