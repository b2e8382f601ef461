from typing import Literal

CriterionKindType11Type = Literal["label"]

CRITERION_KIND_TYPE_11_TYPE_VALUES: set[CriterionKindType11Type] = {
    "label",
}


def check_criterion_kind_type_11_type(value: str) -> CriterionKindType11Type:
    if value in CRITERION_KIND_TYPE_11_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_11_TYPE_VALUES!r}"
    )
