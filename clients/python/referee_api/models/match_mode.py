from typing import Literal

MatchMode = Literal["full", "partial"]

MATCH_MODE_VALUES: set[MatchMode] = {
    "full",
    "partial",
}


def check_match_mode(value: str) -> MatchMode:
    if value in MATCH_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {MATCH_MODE_VALUES!r}"
    )
