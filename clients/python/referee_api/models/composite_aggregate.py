from typing import Literal

CompositeAggregate = Literal["all", "mean", "weighted"]

COMPOSITE_AGGREGATE_VALUES: set[CompositeAggregate] = {
    "all",
    "mean",
    "weighted",
}


def check_composite_aggregate(value: str) -> CompositeAggregate:
    if value in COMPOSITE_AGGREGATE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMPOSITE_AGGREGATE_VALUES!r}"
    )
