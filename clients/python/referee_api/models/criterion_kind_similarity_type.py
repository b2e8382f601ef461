from typing import Literal

CriterionKindSimilarityType = Literal["similarity"]

CRITERION_KIND_SIMILARITY_TYPE_VALUES: set[CriterionKindSimilarityType] = {
    "similarity",
}


def check_criterion_kind_similarity_type(value: str) -> CriterionKindSimilarityType:
    if value in CRITERION_KIND_SIMILARITY_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_SIMILARITY_TYPE_VALUES!r}"
    )
