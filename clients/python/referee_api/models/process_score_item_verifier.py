from typing import Literal

ProcessScoreItemVerifier = Literal["process"]

PROCESS_SCORE_ITEM_VERIFIER_VALUES: set[ProcessScoreItemVerifier] = {
    "process",
}


def check_process_score_item_verifier(value: str) -> ProcessScoreItemVerifier:
    if value in PROCESS_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PROCESS_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
