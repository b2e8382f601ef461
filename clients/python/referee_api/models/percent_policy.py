from typing import Literal

PercentPolicy = Literal["either", "fraction", "number"]

PERCENT_POLICY_VALUES: set[PercentPolicy] = {
    "either",
    "fraction",
    "number",
}


def check_percent_policy(value: str) -> PercentPolicy:
    if value in PERCENT_POLICY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERCENT_POLICY_VALUES!r}"
    )
