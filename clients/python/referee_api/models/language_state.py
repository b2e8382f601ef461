from typing import Literal

LanguageState = Literal["available", "unavailable", "unchecked"]

LANGUAGE_STATE_VALUES: set[LanguageState] = {
    "available",
    "unavailable",
    "unchecked",
}


def check_language_state(value: str) -> LanguageState:
    if value in LANGUAGE_STATE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LANGUAGE_STATE_VALUES!r}"
    )
