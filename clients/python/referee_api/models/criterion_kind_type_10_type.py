from typing import Literal

CriterionKindType10Type = Literal["score"]

CRITERION_KIND_TYPE_10_TYPE_VALUES: set[CriterionKindType10Type] = {
    "score",
}


def check_criterion_kind_type_10_type(value: str) -> CriterionKindType10Type:
    if value in CRITERION_KIND_TYPE_10_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_10_TYPE_VALUES!r}"
    )
