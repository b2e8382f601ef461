from typing import Literal

GroundingScoreItemVerifier = Literal["grounding"]

GROUNDING_SCORE_ITEM_VERIFIER_VALUES: set[GroundingScoreItemVerifier] = {
    "grounding",
}


def check_grounding_score_item_verifier(value: str) -> GroundingScoreItemVerifier:
    if value in GROUNDING_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GROUNDING_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
