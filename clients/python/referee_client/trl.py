"""TRL: a reward function for `GRPOTrainer`.

    from referee_client.trl import reward_function
    trainer = GRPOTrainer(..., reward_funcs=[reward_function("math", reference_column="solution")])

`GRPOTrainer` calls `f(prompts=..., completions=..., completion_ids=..., **columns)` once per
step with every completion of the step and the dataset's other columns; the whole step is scored
in one request. A completion is a string, or (conversational datasets) a list of messages whose
last `content` is the response. The reference is the `reference_column` value of each row (a
dict there is merged into the verifier's input). Items the server could not judge (status
`timeout`, `resource_limit`, `invalid_input` or `internal_error`) are `None`, which TRL leaves out
of the reward instead of counting them as 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from referee_client.client import DEFAULT_URL, Referee, is_judged

__all__ = ["reward_function"]

RewardFunction = Callable[..., list[float | None]]


def _text(completion: Any) -> str:
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content", "")
        if isinstance(content, str):
            return content
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    raise TypeError(f"a completion is a string or a list of messages, got {type(completion).__name__}")


def reward_function(
    verifier: str = "math",
    *,
    reference_column: str = "solution",
    base_url: str = DEFAULT_URL,
    api_key: str | None = None,
    client: Referee | None = None,
    timeout_ms: int | None = None,
) -> RewardFunction:
    """A `GRPOTrainer` reward function that scores completions with `verifier`."""
    referee = client if client is not None else Referee(base_url, api_key=api_key, chunk_size=16_384)

    def reward(prompts: Sequence[Any], completions: Sequence[Any], **columns: Any) -> list[float | None]:
        references = columns.get(reference_column)
        if references is None:
            raise KeyError(f"the dataset has no `{reference_column}` column; set reference_column")
        inputs = []
        for completion, reference in zip(completions, references, strict=True):
            one: dict[str, Any] = dict(reference) if isinstance(reference, dict) else {"reference": str(reference)}
            one["response"] = _text(completion)
            inputs.append(one)
        results = referee.score_with(verifier, inputs, timeout_ms=timeout_ms)
        return [float(r["score"]) if is_judged(r) else None for r in results]

    reward.__name__ = f"referee_{verifier.replace('-', '_')}"
    reward.__qualname__ = reward.__name__
    return reward
