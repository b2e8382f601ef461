from typing import Literal

Operation = Literal["eq", "ilike", "like", "ne"]

OPERATION_VALUES: set[Operation] = {
    "eq",
    "ilike",
    "like",
    "ne",
}


def check_operation(value: str) -> Operation:
    if value in OPERATION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {OPERATION_VALUES!r}")
