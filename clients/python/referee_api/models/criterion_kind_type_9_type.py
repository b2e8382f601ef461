from typing import Literal

CriterionKindType9Type = Literal["verifier"]

CRITERION_KIND_TYPE_9_TYPE_VALUES: set[CriterionKindType9Type] = {
    "verifier",
}


def check_criterion_kind_type_9_type(value: str) -> CriterionKindType9Type:
    if value in CRITERION_KIND_TYPE_9_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_9_TYPE_VALUES!r}"
    )
