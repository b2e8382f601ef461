from typing import Literal

SuiteFormat = Literal["asserts", "generator", "inputs", "io"]

SUITE_FORMAT_VALUES: set[SuiteFormat] = {
    "asserts",
    "generator",
    "inputs",
    "io",
}


def check_suite_format(value: str) -> SuiteFormat:
    if value in SUITE_FORMAT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SUITE_FORMAT_VALUES!r}"
    )
