from typing import Literal

NpScoreItemVerifier = Literal["np"]

NP_SCORE_ITEM_VERIFIER_VALUES: set[NpScoreItemVerifier] = {
    "np",
}


def check_np_score_item_verifier(value: str) -> NpScoreItemVerifier:
    if value in NP_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {NP_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
