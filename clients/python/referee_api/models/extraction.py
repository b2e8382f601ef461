from typing import Literal

Extraction = Literal[
    "answer_line", "answer_tag", "auto", "boxed", "gsm8k_marker", "none"
]

EXTRACTION_VALUES: set[Extraction] = {
    "answer_line",
    "answer_tag",
    "auto",
    "boxed",
    "gsm8k_marker",
    "none",
}


def check_extraction(value: str) -> Extraction:
    if value in EXTRACTION_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EXTRACTION_VALUES!r}"
    )
