from typing import Literal

Status = Literal[
    "correct",
    "incorrect",
    "internal_error",
    "invalid_input",
    "partial",
    "resource_limit",
    "timeout",
    "unparseable",
]

STATUS_VALUES: set[Status] = {
    "correct",
    "incorrect",
    "internal_error",
    "invalid_input",
    "partial",
    "resource_limit",
    "timeout",
    "unparseable",
}


def check_status(value: str) -> Status:
    if value in STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {STATUS_VALUES!r}")
