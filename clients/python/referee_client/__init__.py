"""Referee's Python client: batch scoring over the generated `referee_api` package, and
adapters for trainers (`referee_client.openrlhf`, `referee_client.verl`, `referee_client.trl`)."""

from .client import UNJUDGED, AsyncReferee, Referee, RefereeError, Result, is_judged

__all__ = ["UNJUDGED", "AsyncReferee", "Referee", "RefereeError", "Result", "is_judged"]
