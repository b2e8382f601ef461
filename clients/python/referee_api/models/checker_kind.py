from typing import Literal

CheckerKind = Literal["exact", "float", "lines", "program", "tokens"]

CHECKER_KIND_VALUES: set[CheckerKind] = {
    "exact",
    "float",
    "lines",
    "program",
    "tokens",
}


def check_checker_kind(value: str) -> CheckerKind:
    if value in CHECKER_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CHECKER_KIND_VALUES!r}"
    )
