from typing import Literal

CountWindowType2Kind = Literal["decay"]

COUNT_WINDOW_TYPE_2_KIND_VALUES: set[CountWindowType2Kind] = {
    "decay",
}


def check_count_window_type_2_kind(value: str) -> CountWindowType2Kind:
    if value in COUNT_WINDOW_TYPE_2_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COUNT_WINDOW_TYPE_2_KIND_VALUES!r}"
    )
