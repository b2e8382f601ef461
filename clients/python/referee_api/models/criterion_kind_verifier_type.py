from typing import Literal

CriterionKindVerifierType = Literal["verifier"]

CRITERION_KIND_VERIFIER_TYPE_VALUES: set[CriterionKindVerifierType] = {
    "verifier",
}


def check_criterion_kind_verifier_type(value: str) -> CriterionKindVerifierType:
    if value in CRITERION_KIND_VERIFIER_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CRITERION_KIND_VERIFIER_TYPE_VALUES!r}"
    )
