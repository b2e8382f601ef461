from typing import Literal

ScorerKind = Literal["reward_model", "verifier"]

SCORER_KIND_VALUES: set[ScorerKind] = {
    "reward_model",
    "verifier",
}


def check_scorer_kind(value: str) -> ScorerKind:
    if value in SCORER_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SCORER_KIND_VALUES!r}"
    )
