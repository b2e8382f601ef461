from typing import Literal

CriterionKindType8Type = Literal["similarity"]

CRITERION_KIND_TYPE_8_TYPE_VALUES: set[CriterionKindType8Type] = {
    "similarity",
}


def check_criterion_kind_type_8_type(value: str) -> CriterionKindType8Type:
    if value in CRITERION_KIND_TYPE_8_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_8_TYPE_VALUES!r}"
    )
