from typing import Literal

Normalisation = Literal["mean_only", "mean_std"]

NORMALISATION_VALUES: set[Normalisation] = {
    "mean_only",
    "mean_std",
}


def check_normalisation(value: str) -> Normalisation:
    if value in NORMALISATION_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {NORMALISATION_VALUES!r}"
    )
