from typing import Literal

CriterionKindKeywordsType = Literal["keywords"]

CRITERION_KIND_KEYWORDS_TYPE_VALUES: set[CriterionKindKeywordsType] = {
    "keywords",
}


def check_criterion_kind_keywords_type(value: str) -> CriterionKindKeywordsType:
    if value in CRITERION_KIND_KEYWORDS_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_KEYWORDS_TYPE_VALUES!r}"
    )
