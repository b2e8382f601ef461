from typing import Literal

RegexMatchScoreItemVerifier = Literal["regex-match"]

REGEX_MATCH_SCORE_ITEM_VERIFIER_VALUES: set[RegexMatchScoreItemVerifier] = {
    "regex-match",
}


def check_regex_match_score_item_verifier(value: str) -> RegexMatchScoreItemVerifier:
    if value in REGEX_MATCH_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REGEX_MATCH_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
