from typing import Literal

CriterionKindType4Type = Literal["json_schema"]

CRITERION_KIND_TYPE_4_TYPE_VALUES: set[CriterionKindType4Type] = {
    "json_schema",
}


def check_criterion_kind_type_4_type(value: str) -> CriterionKindType4Type:
    if value in CRITERION_KIND_TYPE_4_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_4_TYPE_VALUES!r}"
    )
