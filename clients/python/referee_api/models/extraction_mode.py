from typing import Literal

ExtractionMode = Literal["auto", "boxed", "whole"]

EXTRACTION_MODE_VALUES: set[ExtractionMode] = {
    "auto",
    "boxed",
    "whole",
}


def check_extraction_mode(value: str) -> ExtractionMode:
    if value in EXTRACTION_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EXTRACTION_MODE_VALUES!r}"
    )
