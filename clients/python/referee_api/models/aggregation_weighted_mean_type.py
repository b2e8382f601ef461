from typing import Literal

AggregationWeightedMeanType = Literal["weighted_mean"]

AGGREGATION_WEIGHTED_MEAN_TYPE_VALUES: set[AggregationWeightedMeanType] = {
    "weighted_mean",
}


def check_aggregation_weighted_mean_type(value: str) -> AggregationWeightedMeanType:
    if value in AGGREGATION_WEIGHTED_MEAN_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {AGGREGATION_WEIGHTED_MEAN_TYPE_VALUES!r}"
    )
