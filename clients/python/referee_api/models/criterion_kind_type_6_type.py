from typing import Literal

CriterionKindType6Type = Literal["section"]

CRITERION_KIND_TYPE_6_TYPE_VALUES: set[CriterionKindType6Type] = {
    "section",
}


def check_criterion_kind_type_6_type(value: str) -> CriterionKindType6Type:
    if value in CRITERION_KIND_TYPE_6_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_6_TYPE_VALUES!r}"
    )
