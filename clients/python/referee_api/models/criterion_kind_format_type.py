from typing import Literal

CriterionKindFormatType = Literal["format"]

CRITERION_KIND_FORMAT_TYPE_VALUES: set[CriterionKindFormatType] = {
    "format",
}


def check_criterion_kind_format_type(value: str) -> CriterionKindFormatType:
    if value in CRITERION_KIND_FORMAT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_FORMAT_TYPE_VALUES!r}"
    )
