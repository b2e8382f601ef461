from typing import Literal

CompositeSplit = Literal["answer_tags", "boxes", "json", "lines", "numbered"]

COMPOSITE_SPLIT_VALUES: set[CompositeSplit] = {
    "answer_tags",
    "boxes",
    "json",
    "lines",
    "numbered",
}


def check_composite_split(value: str) -> CompositeSplit:
    if value in COMPOSITE_SPLIT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMPOSITE_SPLIT_VALUES!r}"
    )
