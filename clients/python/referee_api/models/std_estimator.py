from typing import Literal

StdEstimator = Literal["population", "sample"]

STD_ESTIMATOR_VALUES: set[StdEstimator] = {
    "population",
    "sample",
}


def check_std_estimator(value: str) -> StdEstimator:
    if value in STD_ESTIMATOR_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {STD_ESTIMATOR_VALUES!r}"
    )
