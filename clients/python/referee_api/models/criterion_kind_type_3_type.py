from typing import Literal

CriterionKindType3Type = Literal["valid_json"]

CRITERION_KIND_TYPE_3_TYPE_VALUES: set[CriterionKindType3Type] = {
    "valid_json",
}


def check_criterion_kind_type_3_type(value: str) -> CriterionKindType3Type:
    if value in CRITERION_KIND_TYPE_3_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_TYPE_3_TYPE_VALUES!r}"
    )
