from typing import Literal

IntervalMethod = Literal[
    "clopper_pearson", "configured", "jeffreys", "monte_carlo", "rate_bounds", "wilson"
]

INTERVAL_METHOD_VALUES: set[IntervalMethod] = {
    "clopper_pearson",
    "configured",
    "jeffreys",
    "monte_carlo",
    "rate_bounds",
    "wilson",
}


def check_interval_method(value: str) -> IntervalMethod:
    if value in INTERVAL_METHOD_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {INTERVAL_METHOD_VALUES!r}"
    )
