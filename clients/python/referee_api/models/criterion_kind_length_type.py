from typing import Literal

CriterionKindLengthType = Literal["length"]

CRITERION_KIND_LENGTH_TYPE_VALUES: set[CriterionKindLengthType] = {
    "length",
}


def check_criterion_kind_length_type(value: str) -> CriterionKindLengthType:
    if value in CRITERION_KIND_LENGTH_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_LENGTH_TYPE_VALUES!r}"
    )
