from typing import Literal

CriterionKindType2Type = Literal["length"]

CRITERION_KIND_TYPE_2_TYPE_VALUES: set[CriterionKindType2Type] = {
    "length",
}


def check_criterion_kind_type_2_type(value: str) -> CriterionKindType2Type:
    if value in CRITERION_KIND_TYPE_2_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_2_TYPE_VALUES!r}"
    )
