from typing import Literal

CriterionKindType1Type = Literal["keywords"]

CRITERION_KIND_TYPE_1_TYPE_VALUES: set[CriterionKindType1Type] = {
    "keywords",
}


def check_criterion_kind_type_1_type(value: str) -> CriterionKindType1Type:
    if value in CRITERION_KIND_TYPE_1_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_1_TYPE_VALUES!r}"
    )
