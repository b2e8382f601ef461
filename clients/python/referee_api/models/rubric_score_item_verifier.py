from typing import Literal

RubricScoreItemVerifier = Literal["rubric"]

RUBRIC_SCORE_ITEM_VERIFIER_VALUES: set[RubricScoreItemVerifier] = {
    "rubric",
}


def check_rubric_score_item_verifier(value: str) -> RubricScoreItemVerifier:
    if value in RUBRIC_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {RUBRIC_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
