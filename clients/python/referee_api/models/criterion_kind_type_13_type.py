from typing import Literal

CriterionKindType13Type = Literal["principle"]

CRITERION_KIND_TYPE_13_TYPE_VALUES: set[CriterionKindType13Type] = {
    "principle",
}


def check_criterion_kind_type_13_type(value: str) -> CriterionKindType13Type:
    if value in CRITERION_KIND_TYPE_13_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_13_TYPE_VALUES!r}"
    )
