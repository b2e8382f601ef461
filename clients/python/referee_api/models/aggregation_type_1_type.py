from typing import Literal

AggregationType1Type = Literal["formula"]

AGGREGATION_TYPE_1_TYPE_VALUES: set[AggregationType1Type] = {
    "formula",
}


def check_aggregation_type_1_type(value: str) -> AggregationType1Type:
    if value in AGGREGATION_TYPE_1_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {AGGREGATION_TYPE_1_TYPE_VALUES!r}"
    )
