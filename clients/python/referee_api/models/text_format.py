from typing import Literal

TextFormat = Literal["bullet_list", "code_block", "heading", "numbered_list", "table"]

TEXT_FORMAT_VALUES: set[TextFormat] = {
    "bullet_list",
    "code_block",
    "heading",
    "numbered_list",
    "table",
}


def check_text_format(value: str) -> TextFormat:
    if value in TEXT_FORMAT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {TEXT_FORMAT_VALUES!r}"
    )
