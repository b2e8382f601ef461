from typing import Literal

CriterionKindLanguageType = Literal["language"]

CRITERION_KIND_LANGUAGE_TYPE_VALUES: set[CriterionKindLanguageType] = {
    "language",
}


def check_criterion_kind_language_type(value: str) -> CriterionKindLanguageType:
    if value in CRITERION_KIND_LANGUAGE_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_LANGUAGE_TYPE_VALUES!r}"
    )
