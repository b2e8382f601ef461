from typing import Literal

CodeScoreItemVerifier = Literal["code"]

CODE_SCORE_ITEM_VERIFIER_VALUES: set[CodeScoreItemVerifier] = {
    "code",
}


def check_code_score_item_verifier(value: str) -> CodeScoreItemVerifier:
    if value in CODE_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CODE_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
