from typing import Literal

CriterionKindType0Type = Literal["regex"]

CRITERION_KIND_TYPE_0_TYPE_VALUES: set[CriterionKindType0Type] = {
    "regex",
}


def check_criterion_kind_type_0_type(value: str) -> CriterionKindType0Type:
    if value in CRITERION_KIND_TYPE_0_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_0_TYPE_VALUES!r}"
    )
