from typing import Literal

CriterionKindType7Type = Literal["format"]

CRITERION_KIND_TYPE_7_TYPE_VALUES: set[CriterionKindType7Type] = {
    "format",
}


def check_criterion_kind_type_7_type(value: str) -> CriterionKindType7Type:
    if value in CRITERION_KIND_TYPE_7_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_7_TYPE_VALUES!r}"
    )
