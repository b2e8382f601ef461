from typing import Literal

ProcessCheckType1By = Literal["verifier"]

PROCESS_CHECK_TYPE_1_BY_VALUES: set[ProcessCheckType1By] = {
    "verifier",
}


def check_process_check_type_1_by(value: str) -> ProcessCheckType1By:
    if value in PROCESS_CHECK_TYPE_1_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PROCESS_CHECK_TYPE_1_BY_VALUES!r}"
    )
