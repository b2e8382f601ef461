from typing import Literal

CountWindowType1Kind = Literal["sliding"]

COUNT_WINDOW_TYPE_1_KIND_VALUES: set[CountWindowType1Kind] = {
    "sliding",
}


def check_count_window_type_1_kind(value: str) -> CountWindowType1Kind:
    if value in COUNT_WINDOW_TYPE_1_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COUNT_WINDOW_TYPE_1_KIND_VALUES!r}"
    )
