from typing import Literal

Language = Literal["c", "cpp", "go", "javascript", "python", "rust"]

LANGUAGE_VALUES: set[Language] = {
    "c",
    "cpp",
    "go",
    "javascript",
    "python",
    "rust",
}


def check_language(value: str) -> Language:
    if value in LANGUAGE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LANGUAGE_VALUES!r}")
