from typing import Literal

JobState = Literal["cancelled", "done", "queued", "running"]

JOB_STATE_VALUES: set[JobState] = {
    "cancelled",
    "done",
    "queued",
    "running",
}


def check_job_state(value: str) -> JobState:
    if value in JOB_STATE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {JOB_STATE_VALUES!r}")
