from typing import Literal

MultipleChoiceScoreItemVerifier = Literal["multiple-choice"]

MULTIPLE_CHOICE_SCORE_ITEM_VERIFIER_VALUES: set[MultipleChoiceScoreItemVerifier] = {
    "multiple-choice",
}


def check_multiple_choice_score_item_verifier(
    value: str,
) -> MultipleChoiceScoreItemVerifier:
    if value in MULTIPLE_CHOICE_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {MULTIPLE_CHOICE_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
