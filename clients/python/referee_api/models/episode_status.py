from typing import Literal

EpisodeStatus = Literal["closed", "done", "expired", "live", "turn_limit"]

EPISODE_STATUS_VALUES: set[EpisodeStatus] = {
    "closed",
    "done",
    "expired",
    "live",
    "turn_limit",
}


def check_episode_status(value: str) -> EpisodeStatus:
    if value in EPISODE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EPISODE_STATUS_VALUES!r}"
    )
