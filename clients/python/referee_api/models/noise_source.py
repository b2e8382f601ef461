from typing import Literal

NoiseSource = Literal["appeal", "audit", "configured"]

NOISE_SOURCE_VALUES: set[NoiseSource] = {
    "appeal",
    "audit",
    "configured",
}


def check_noise_source(value: str) -> NoiseSource:
    if value in NOISE_SOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {NOISE_SOURCE_VALUES!r}"
    )
