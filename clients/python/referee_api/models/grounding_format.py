from typing import Literal

GroundingFormat = Literal["brackets", "chunk_tags"]

GROUNDING_FORMAT_VALUES: set[GroundingFormat] = {
    "brackets",
    "chunk_tags",
}


def check_grounding_format(value: str) -> GroundingFormat:
    if value in GROUNDING_FORMAT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GROUNDING_FORMAT_VALUES!r}"
    )
