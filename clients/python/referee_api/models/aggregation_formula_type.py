from typing import Literal

AggregationFormulaType = Literal["formula"]

AGGREGATION_FORMULA_TYPE_VALUES: set[AggregationFormulaType] = {
    "formula",
}


def check_aggregation_formula_type(value: str) -> AggregationFormulaType:
    if value in AGGREGATION_FORMULA_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {AGGREGATION_FORMULA_TYPE_VALUES!r}"
    )
