from typing import Literal

CriterionKindSectionType = Literal["section"]

CRITERION_KIND_SECTION_TYPE_VALUES: set[CriterionKindSectionType] = {
    "section",
}


def check_criterion_kind_section_type(value: str) -> CriterionKindSectionType:
    if value in CRITERION_KIND_SECTION_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_SECTION_TYPE_VALUES!r}"
    )
