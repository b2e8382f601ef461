from typing import Literal

ProcessAggregate = Literal["first_error", "last", "mean", "min", "product"]

PROCESS_AGGREGATE_VALUES: set[ProcessAggregate] = {
    "first_error",
    "last",
    "mean",
    "min",
    "product",
}


def check_process_aggregate(value: str) -> ProcessAggregate:
    if value in PROCESS_AGGREGATE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PROCESS_AGGREGATE_VALUES!r}"
    )
