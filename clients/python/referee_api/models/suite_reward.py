from typing import Literal

SuiteReward = Literal["detection_rate", "verifier_accuracy"]

SUITE_REWARD_VALUES: set[SuiteReward] = {
    "detection_rate",
    "verifier_accuracy",
}


def check_suite_reward(value: str) -> SuiteReward:
    if value in SUITE_REWARD_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SUITE_REWARD_VALUES!r}"
    )
