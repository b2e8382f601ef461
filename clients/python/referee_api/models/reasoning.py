from typing import Literal

Reasoning = Literal["drop", "keep"]

REASONING_VALUES: set[Reasoning] = {
    "drop",
    "keep",
}


def check_reasoning(value: str) -> Reasoning:
    if value in REASONING_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REASONING_VALUES!r}")
