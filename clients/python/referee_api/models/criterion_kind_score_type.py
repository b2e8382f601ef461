from typing import Literal

CriterionKindScoreType = Literal["score"]

CRITERION_KIND_SCORE_TYPE_VALUES: set[CriterionKindScoreType] = {
    "score",
}


def check_criterion_kind_score_type(value: str) -> CriterionKindScoreType:
    if value in CRITERION_KIND_SCORE_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_SCORE_TYPE_VALUES!r}"
    )
