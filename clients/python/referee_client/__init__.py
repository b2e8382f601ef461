"""Referee's Python client: batch scoring and batch jobs over the generated `referee_api`
package, and adapters for trainers (`referee_client.openrlhf`, `referee_client.verl`,
`referee_client.trl`, `referee_client.slime`, `referee_client.areal`, and the NeMo Gym resources
server `referee_client.nemo_gym`)."""

from .client import UNJUDGED, AsyncReferee, Item, Referee, RefereeError, Result, is_judged
from .jobs import AsyncJobs, Jobs, JobStatus

__all__ = [
    "UNJUDGED",
    "AsyncJobs",
    "AsyncReferee",
    "Item",
    "JobStatus",
    "Jobs",
    "Referee",
    "RefereeError",
    "Result",
    "is_judged",
]
