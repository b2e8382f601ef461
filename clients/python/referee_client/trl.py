"""TRL: reward functions for `GRPOTrainer` (and the other TRL trainers that take `reward_funcs`).

    from referee_client.trl import reward_function, async_reward_function
    trainer = GRPOTrainer(..., reward_funcs=[reward_function("math", reference_column="solution")])

`GRPOTrainer` calls `f(prompts=..., completions=..., completion_ids=..., **columns)` once per
step with every completion of the step and the dataset's other columns; the whole step is scored
in one request. A coroutine function (`async_reward_function`) is awaited on TRL's own event-loop
thread, concurrently with the step's other asynchronous reward functions. A completion is a
string, or (conversational datasets) a list of messages whose last `content` is the response.
The reference is the `reference_column` value of each row (a dict there is merged into the
verifier's input); with `verifier_column`, a row whose value there is a verifier id is judged by
that verifier.

Items the server could not judge (status `timeout`, `resource_limit`, `invalid_input` or
`internal_error`) are `None` by default. TRL >= 1.6.0 leaves a completion whose every reward
function returned `None` out of its group's baseline and gives it no advantage; older TRL turns
`None` into NaN and sums it away to a reward of 0, so there pass `unjudged=0.0` to say so
explicitly, or keep `None` together with another reward function that always answers.

A step the server refuses with 429 or 503 (load shedding, a full code queue) is sent again, after
the client's own retries, for up to `patience` seconds (`REFEREE_PATIENCE_S`, default 600).

Through TRL's `log_metric` (TRL >= 1.0), each step also logs the fraction of completions with
each status, `referee/<name>/<status>`, and `referee/<name>/unjudged`.

With `run` (or `REFEREE_RUN`), every completion is recorded in that training run (docs/runs.md):
its step is TRL's `trainer_state.global_step` (the function's own count of calls where TRL hands
no state), its prompt id the row's `prompt_id_column` value or else a digest of the prompt, so a
prompt's generations form its group and the server keeps per-prompt pass rates for curricula.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from referee_api.models.status import STATUS_VALUES

from referee_client import _env
from referee_client._batch import patient, patient_async
from referee_client.client import DEFAULT_URL, UNJUDGED, AsyncReferee, Referee, Result, is_judged

__all__ = ["async_reward_function", "reward_function"]

RewardFunction = Callable[..., list[float | None]]
AsyncRewardFunction = Callable[..., Awaitable[list[float | None]]]

#: Every status, so that each step logs the same metrics (TRL averages a metric over the steps
#: that logged it; one logged only when present would overstate it).
STATUSES: tuple[str, ...] = tuple(sorted(STATUS_VALUES))


def _text(completion: Any) -> str:
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content", "")
        if isinstance(content, str):
            return content
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    raise TypeError(f"a completion is a string or a list of messages, got {type(completion).__name__}")


class _Step:
    """What the synchronous and asynchronous functions share: the items of a step and the
    rewards and metrics of its results."""

    def __init__(
        self,
        verifier: str,
        reference_column: str,
        verifier_column: str | None,
        unjudged: float | None,
        run: str | None,
        prompt_id_column: str | None,
    ) -> None:
        self.verifier = verifier
        self.reference_column = reference_column
        self.verifier_column = verifier_column
        self.unjudged = unjudged
        self.name = f"referee_{verifier.replace('-', '_')}"
        self.run = run if run is not None else os.environ.get("REFEREE_RUN") or None
        self.prompt_id_column = prompt_id_column
        self.calls = itertools.count()

    def tags(self, prompts: Sequence[Any], columns: dict[str, Any]) -> tuple[list[str], int | None]:
        """The prompt id of each completion and the step, when the function records a run."""
        if self.run is None:
            return [], None
        call = next(self.calls)
        if self.prompt_id_column is None:
            ids = [_env.prompt_digest(prompt) for prompt in prompts]
        elif self.prompt_id_column in columns:
            ids = [str(value) for value in columns[self.prompt_id_column]]
        else:
            raise KeyError(f"the dataset has no `{self.prompt_id_column}` column; set prompt_id_column")
        step = getattr(columns.get("trainer_state"), "global_step", None)
        return ids, step if isinstance(step, int) else call

    def request(self, prompts: Sequence[Any], completions: Sequence[Any], columns: dict[str, Any]) -> _Request:
        """The items of a step, and how they are sent: to the verifier's own route when every
        item is the function's verifier and no run is recorded, else to `/v1/score`."""
        items = self.items(completions, columns)
        prompt_ids, step = self.tags(prompts, columns)
        if prompt_ids:
            for item, prompt_id in zip(items, prompt_ids, strict=True):
                item["prompt_id"] = prompt_id
        single = self.run is None and all(item["verifier"] == self.verifier for item in items)
        return _Request(items, self.verifier if single else None, self.run, step)

    def items(self, completions: Sequence[Any], columns: dict[str, Any]) -> list[dict[str, Any]]:
        references = columns.get(self.reference_column)
        if references is None:
            raise KeyError(f"the dataset has no `{self.reference_column}` column; set reference_column")
        if self.verifier_column is not None and self.verifier_column not in columns:
            raise KeyError(f"the dataset has no `{self.verifier_column}` column; set verifier_column")
        verifiers = columns.get(self.verifier_column) if self.verifier_column else None
        if verifiers is None:
            verifiers = [None] * len(completions)
        items = []
        for completion, reference, verifier in zip(completions, references, verifiers, strict=True):
            one: dict[str, Any] = dict(reference) if isinstance(reference, dict) else {"reference": str(reference)}
            one["response"] = _text(completion)
            chosen = verifier if isinstance(verifier, str) and verifier else self.verifier
            items.append({"verifier": chosen, "input": one})
        return items

    def rewards(self, results: list[Result], columns: dict[str, Any]) -> list[float | None]:
        log_metric = columns.get("log_metric")
        if callable(log_metric) and results:
            for status in STATUSES:
                share = sum(r["status"] == status for r in results) / len(results)
                log_metric(f"referee/{self.name}/{status}", share)
            log_metric(f"referee/{self.name}/unjudged", sum(r["status"] in UNJUDGED for r in results) / len(results))
        return [float(r["score"]) if is_judged(r) else self.unjudged for r in results]


class _Request:
    """One step's request: its items, the verifier route (or `None` for `/v1/score`), the run
    and the step."""

    def __init__(self, items: list[dict[str, Any]], verifier: str | None, run: str | None, step: int | None) -> None:
        self.items, self.verifier, self.run, self.step = items, verifier, run, step

    def sender(self, referee: Referee, timeout_ms: int | None) -> Callable[[Sequence[dict[str, Any]]], list[Result]]:
        """The call that sends items as this request does."""
        if self.verifier is not None:
            verifier = self.verifier
            return lambda items: referee.score_with(verifier, [i["input"] for i in items], timeout_ms=timeout_ms)
        return lambda items: referee.score(items, timeout_ms=timeout_ms, run=self.run, step=self.step)

    async def send_async(self, referee: AsyncReferee, timeout_ms: int | None) -> list[Result]:
        if self.verifier is not None:
            return await referee.score_with(self.verifier, [i["input"] for i in self.items], timeout_ms=timeout_ms)
        return await referee.score(self.items, timeout_ms=timeout_ms, run=self.run, step=self.step)


def reward_function(
    verifier: str = "math",
    *,
    reference_column: str = "solution",
    verifier_column: str | None = None,
    unjudged: float | None = None,
    base_url: str = DEFAULT_URL,
    api_key: str | None = None,
    client: Referee | None = None,
    timeout_ms: int | None = None,
    patience: float | None = None,
    run: str | None = None,
    prompt_id_column: str | None = None,
) -> RewardFunction:
    """A `GRPOTrainer` reward function that scores completions with `verifier` (or each row's
    `verifier_column` value). Its `__name__`, the name TRL logs, is `referee_<verifier>`. A step
    the server pushes back on (429, 503) is sent again for up to `patience` seconds (default
    `REFEREE_PATIENCE_S`, 600). With `run` (default `REFEREE_RUN`) the completions are recorded
    in that training run, by step and prompt (`prompt_id_column`, else a digest of the prompt)."""
    referee = client if client is not None else Referee(base_url, api_key=api_key, chunk_size=16_384)
    step = _Step(verifier, reference_column, verifier_column, unjudged, run, prompt_id_column)

    def reward(prompts: Sequence[Any], completions: Sequence[Any], **columns: Any) -> list[float | None]:
        request = step.request(prompts, completions, columns)
        send = request.sender(referee, timeout_ms)
        results = patient(send, _env.patience() if patience is None else patience)(request.items)
        return step.rewards(results, columns)

    reward.__name__ = step.name
    reward.__qualname__ = step.name
    return reward


def async_reward_function(
    verifier: str = "math",
    *,
    reference_column: str = "solution",
    verifier_column: str | None = None,
    unjudged: float | None = None,
    base_url: str = DEFAULT_URL,
    api_key: str | None = None,
    timeout_ms: int | None = None,
    patience: float | None = None,
    run: str | None = None,
    prompt_id_column: str | None = None,
) -> AsyncRewardFunction:
    """[`reward_function`] as a coroutine function. TRL awaits it on its own event-loop thread;
    the HTTP client is made there, on first use, since an asyncio client belongs to one loop."""
    step = _Step(verifier, reference_column, verifier_column, unjudged, run, prompt_id_column)
    clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncReferee] = weakref.WeakKeyDictionary()

    async def reward(prompts: Sequence[Any], completions: Sequence[Any], **columns: Any) -> list[float | None]:
        loop = asyncio.get_running_loop()
        referee = clients.get(loop)
        if referee is None:
            referee = clients[loop] = AsyncReferee(base_url, api_key=api_key, chunk_size=16_384)
        request = step.request(prompts, completions, columns)
        send = lambda: request.send_async(referee, timeout_ms)
        results = await patient_async(send, _env.patience() if patience is None else patience)
        return step.rewards(results, columns)

    reward.__name__ = step.name
    reward.__qualname__ = step.name
    return reward
