from typing import Literal

RewardBasis = Literal["backward", "forward_weight", "raw"]

REWARD_BASIS_VALUES: set[RewardBasis] = {
    "backward",
    "forward_weight",
    "raw",
}


def check_reward_basis(value: str) -> RewardBasis:
    if value in REWARD_BASIS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REWARD_BASIS_VALUES!r}"
    )
