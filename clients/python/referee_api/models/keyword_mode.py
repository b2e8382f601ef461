from typing import Literal

KeywordMode = Literal["all", "any", "none"]

KEYWORD_MODE_VALUES: set[KeywordMode] = {
    "all",
    "any",
    "none",
}


def check_keyword_mode(value: str) -> KeywordMode:
    if value in KEYWORD_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {KEYWORD_MODE_VALUES!r}"
    )
