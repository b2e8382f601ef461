from typing import Literal

Scoring = Literal["all_or_nothing", "fraction"]

SCORING_VALUES: set[Scoring] = {
    "all_or_nothing",
    "fraction",
}


def check_scoring(value: str) -> Scoring:
    if value in SCORING_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SCORING_VALUES!r}")
