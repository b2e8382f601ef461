from typing import Literal

CriterionKindLabelType = Literal["label"]

CRITERION_KIND_LABEL_TYPE_VALUES: set[CriterionKindLabelType] = {
    "label",
}


def check_criterion_kind_label_type(value: str) -> CriterionKindLabelType:
    if value in CRITERION_KIND_LABEL_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_LABEL_TYPE_VALUES!r}"
    )
