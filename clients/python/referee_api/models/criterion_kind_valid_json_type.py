from typing import Literal

CriterionKindValidJsonType = Literal["valid_json"]

CRITERION_KIND_VALID_JSON_TYPE_VALUES: set[CriterionKindValidJsonType] = {
    "valid_json",
}


def check_criterion_kind_valid_json_type(value: str) -> CriterionKindValidJsonType:
    if value in CRITERION_KIND_VALID_JSON_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_VALID_JSON_TYPE_VALUES!r}"
    )
