from typing import Literal

ReferenceKind = Literal["exact", "heuristic", "planted_optimal"]

REFERENCE_KIND_VALUES: set[ReferenceKind] = {
    "exact",
    "heuristic",
    "planted_optimal",
}


def check_reference_kind(value: str) -> ReferenceKind:
    if value in REFERENCE_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REFERENCE_KIND_VALUES!r}"
    )
