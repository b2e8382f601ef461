from typing import Literal

CriterionKindType5Type = Literal["language"]

CRITERION_KIND_TYPE_5_TYPE_VALUES: set[CriterionKindType5Type] = {
    "language",
}


def check_criterion_kind_type_5_type(value: str) -> CriterionKindType5Type:
    if value in CRITERION_KIND_TYPE_5_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_5_TYPE_VALUES!r}"
    )
