from typing import Literal

LengthUnit = Literal["chars", "tokens", "words"]

LENGTH_UNIT_VALUES: set[LengthUnit] = {
    "chars",
    "tokens",
    "words",
}


def check_length_unit(value: str) -> LengthUnit:
    if value in LENGTH_UNIT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LENGTH_UNIT_VALUES!r}"
    )
