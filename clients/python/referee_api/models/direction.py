from typing import Literal

Direction = Literal["maximize", "minimize", "minimize_shifted"]

DIRECTION_VALUES: set[Direction] = {
    "maximize",
    "minimize",
    "minimize_shifted",
}


def check_direction(value: str) -> Direction:
    if value in DIRECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DIRECTION_VALUES!r}")
