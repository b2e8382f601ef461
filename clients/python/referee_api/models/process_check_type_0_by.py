from typing import Literal

ProcessCheckType0By = Literal["judge"]

PROCESS_CHECK_TYPE_0_BY_VALUES: set[ProcessCheckType0By] = {
    "judge",
}


def check_process_check_type_0_by(value: str) -> ProcessCheckType0By:
    if value in PROCESS_CHECK_TYPE_0_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PROCESS_CHECK_TYPE_0_BY_VALUES!r}"
    )
