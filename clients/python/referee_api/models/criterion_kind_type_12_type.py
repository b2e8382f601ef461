from typing import Literal

CriterionKindType12Type = Literal["choices"]

CRITERION_KIND_TYPE_12_TYPE_VALUES: set[CriterionKindType12Type] = {
    "choices",
}


def check_criterion_kind_type_12_type(value: str) -> CriterionKindType12Type:
    if value in CRITERION_KIND_TYPE_12_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_12_TYPE_VALUES!r}"
    )
