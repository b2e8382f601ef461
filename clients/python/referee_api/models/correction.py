from typing import Literal

Correction = Literal["backward", "none"]

CORRECTION_VALUES: set[Correction] = {
    "backward",
    "none",
}


def check_correction(value: str) -> Correction:
    if value in CORRECTION_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CORRECTION_VALUES!r}"
    )
