from typing import Literal

MathScoreItemVerifier = Literal["math"]

MATH_SCORE_ITEM_VERIFIER_VALUES: set[MathScoreItemVerifier] = {
    "math",
}


def check_math_score_item_verifier(value: str) -> MathScoreItemVerifier:
    if value in MATH_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {MATH_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
