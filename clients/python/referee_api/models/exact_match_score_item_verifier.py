from typing import Literal

ExactMatchScoreItemVerifier = Literal["exact-match"]

EXACT_MATCH_SCORE_ITEM_VERIFIER_VALUES: set[ExactMatchScoreItemVerifier] = {
    "exact-match",
}


def check_exact_match_score_item_verifier(value: str) -> ExactMatchScoreItemVerifier:
    if value in EXACT_MATCH_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EXACT_MATCH_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
