from typing import Literal

CompositeScoreItemVerifier = Literal["composite"]

COMPOSITE_SCORE_ITEM_VERIFIER_VALUES: set[CompositeScoreItemVerifier] = {
    "composite",
}


def check_composite_score_item_verifier(value: str) -> CompositeScoreItemVerifier:
    if value in COMPOSITE_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMPOSITE_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
