from typing import Literal

CriterionKindJsonSchemaType = Literal["json_schema"]

CRITERION_KIND_JSON_SCHEMA_TYPE_VALUES: set[CriterionKindJsonSchemaType] = {
    "json_schema",
}


def check_criterion_kind_json_schema_type(value: str) -> CriterionKindJsonSchemaType:
    if value in CRITERION_KIND_JSON_SCHEMA_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_JSON_SCHEMA_TYPE_VALUES!r}"
    )
