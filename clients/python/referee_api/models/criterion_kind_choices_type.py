from typing import Literal

CriterionKindChoicesType = Literal["choices"]

CRITERION_KIND_CHOICES_TYPE_VALUES: set[CriterionKindChoicesType] = {
    "choices",
}


def check_criterion_kind_choices_type(value: str) -> CriterionKindChoicesType:
    if value in CRITERION_KIND_CHOICES_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_CHOICES_TYPE_VALUES!r}"
    )
