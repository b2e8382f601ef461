from typing import Literal

BinomialInterval = Literal["clopper_pearson", "jeffreys", "wilson"]

BINOMIAL_INTERVAL_VALUES: set[BinomialInterval] = {
    "clopper_pearson",
    "jeffreys",
    "wilson",
}


def check_binomial_interval(value: str) -> BinomialInterval:
    if value in BINOMIAL_INTERVAL_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BINOMIAL_INTERVAL_VALUES!r}"
    )
