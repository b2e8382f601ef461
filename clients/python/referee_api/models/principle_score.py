from typing import Literal

PrincipleScore = Literal["logit", "p_yes"]

PRINCIPLE_SCORE_VALUES: set[PrincipleScore] = {
    "logit",
    "p_yes",
}


def check_principle_score(value: str) -> PrincipleScore:
    if value in PRINCIPLE_SCORE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PRINCIPLE_SCORE_VALUES!r}"
    )
