from typing import Literal

AggregationType0Type = Literal["weighted_mean"]

AGGREGATION_TYPE_0_TYPE_VALUES: set[AggregationType0Type] = {
    "weighted_mean",
}


def check_aggregation_type_0_type(value: str) -> AggregationType0Type:
    if value in AGGREGATION_TYPE_0_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {AGGREGATION_TYPE_0_TYPE_VALUES!r}"
    )
