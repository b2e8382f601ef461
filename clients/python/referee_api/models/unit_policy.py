from typing import Literal

UnitPolicy = Literal["ignore", "require"]

UNIT_POLICY_VALUES: set[UnitPolicy] = {
    "ignore",
    "require",
}


def check_unit_policy(value: str) -> UnitPolicy:
    if value in UNIT_POLICY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UNIT_POLICY_VALUES!r}"
    )
