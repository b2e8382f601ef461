from typing import Literal

CountWindowType0Kind = Literal["all"]

COUNT_WINDOW_TYPE_0_KIND_VALUES: set[CountWindowType0Kind] = {
    "all",
}


def check_count_window_type_0_kind(value: str) -> CountWindowType0Kind:
    if value in COUNT_WINDOW_TYPE_0_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COUNT_WINDOW_TYPE_0_KIND_VALUES!r}"
    )
