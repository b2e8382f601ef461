from typing import Literal

ProcessSplit = Literal["lines", "markers", "paragraphs"]

PROCESS_SPLIT_VALUES: set[ProcessSplit] = {
    "lines",
    "markers",
    "paragraphs",
}


def check_process_split(value: str) -> ProcessSplit:
    if value in PROCESS_SPLIT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PROCESS_SPLIT_VALUES!r}"
    )
