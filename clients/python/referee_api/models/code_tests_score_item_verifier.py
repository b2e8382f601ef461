from typing import Literal

CodeTestsScoreItemVerifier = Literal["code-tests"]

CODE_TESTS_SCORE_ITEM_VERIFIER_VALUES: set[CodeTestsScoreItemVerifier] = {
    "code-tests",
}


def check_code_tests_score_item_verifier(value: str) -> CodeTestsScoreItemVerifier:
    if value in CODE_TESTS_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CODE_TESTS_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
