from typing import Literal

RlprScoreItemVerifier = Literal["rlpr"]

RLPR_SCORE_ITEM_VERIFIER_VALUES: set[RlprScoreItemVerifier] = {
    "rlpr",
}


def check_rlpr_score_item_verifier(value: str) -> RlprScoreItemVerifier:
    if value in RLPR_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {RLPR_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
