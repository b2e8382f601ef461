from typing import Literal

CriterionKindRegexType = Literal["regex"]

CRITERION_KIND_REGEX_TYPE_VALUES: set[CriterionKindRegexType] = {
    "regex",
}


def check_criterion_kind_regex_type(value: str) -> CriterionKindRegexType:
    if value in CRITERION_KIND_REGEX_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_REGEX_TYPE_VALUES!r}"
    )
