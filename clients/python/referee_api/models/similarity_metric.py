from typing import Literal

SimilarityMetric = Literal["bleu", "fuzzy_ratio", "rouge_l"]

SIMILARITY_METRIC_VALUES: set[SimilarityMetric] = {
    "bleu",
    "fuzzy_ratio",
    "rouge_l",
}


def check_similarity_metric(value: str) -> SimilarityMetric:
    if value in SIMILARITY_METRIC_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SIMILARITY_METRIC_VALUES!r}"
    )
