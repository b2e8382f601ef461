from typing import Literal

FormatMode = Literal["r1", "r1_nothink"]

FORMAT_MODE_VALUES: set[FormatMode] = {
    "r1",
    "r1_nothink",
}


def check_format_mode(value: str) -> FormatMode:
    if value in FORMAT_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {FORMAT_MODE_VALUES!r}"
    )
