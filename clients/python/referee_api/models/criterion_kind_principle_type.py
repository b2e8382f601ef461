from typing import Literal

CriterionKindPrincipleType = Literal["principle"]

CRITERION_KIND_PRINCIPLE_TYPE_VALUES: set[CriterionKindPrincipleType] = {
    "principle",
}


def check_criterion_kind_principle_type(value: str) -> CriterionKindPrincipleType:
    if value in CRITERION_KIND_PRINCIPLE_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_PRINCIPLE_TYPE_VALUES!r}"
    )
