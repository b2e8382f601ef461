from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.chat_message import ChatMessage
    from ..models.rlpr_input_options import RlprInputOptions


T = TypeVar("T", bound="RlprInput")


@_attrs_define
class RlprInput:
    """An RLPR item: the response, and either the log-probs the trainer computed (`logprobs`) or
    what the server's model needs to compute them (`prompt` or `messages`, and `reference`).

        Attributes:
            response (str): The generated response, without padding.
            baseline_logprobs (list[float] | None | Unset): Supplied mode: the log-probs of the reference-answer tokens of
                the no-reasoning baseline
                (prompt, then the reference alone), when debiasing from them.
            logprobs (list[float] | None | Unset): Supplied mode: the policy's log-probs (natural log, at the temperature
                the trainer scores
                with: RLPR's scripts use the rollout temperature, 1 for Qwen and 0.6 for Llama and Gemma)
                of the reference-answer tokens of the substituted sequence, in order: the tokens its
                scoring mask selects. Empty when the response has no answer structure.
            messages (list[ChatMessage] | None | Unset): Model mode: the prompt as chat messages, rendered by the model's
                chat template (a
                source without one refuses them); instead of `prompt`.
            options (RlprInputOptions | Unset): The score reduction, format mode, debiasing, format weight, rounding and
                repetition
                penalty.
            prompt (None | str | Unset): Model mode: the prompt already rendered with the chat template, up to and including
                the
                opening of the assistant's turn; instead of `messages`.
            reference (None | str | Unset): Model mode: the reference answer substituted into the response.
            run (None | str | Unset): Model mode: the training run (1 to 256 bytes) whose no-reasoning baselines are kept in
                the server's database: the first baseline scored for a prompt and reference is stored and
                used for every later rollout of it, across restarts, reloads and replicas, as RLPR
                computes it once with the initial policy. Without it, baselines are kept in a bounded
                in-memory cache.
            score_a (float | None | Unset): The baseline score itself, when the trainer keeps it (RLPR computes it once,
                with the
                initial policy); instead of `baseline_logprobs`, or in model mode instead of scoring the
                baseline text.
    """

    response: str
    baseline_logprobs: list[float] | None | Unset = UNSET
    logprobs: list[float] | None | Unset = UNSET
    messages: list[ChatMessage] | None | Unset = UNSET
    options: RlprInputOptions | Unset = UNSET
    prompt: None | str | Unset = UNSET
    reference: None | str | Unset = UNSET
    run: None | str | Unset = UNSET
    score_a: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        response = self.response

        baseline_logprobs: list[float] | None | Unset
        if isinstance(self.baseline_logprobs, Unset):
            baseline_logprobs = UNSET
        elif isinstance(self.baseline_logprobs, list):
            baseline_logprobs = self.baseline_logprobs

        else:
            baseline_logprobs = self.baseline_logprobs

        logprobs: list[float] | None | Unset
        if isinstance(self.logprobs, Unset):
            logprobs = UNSET
        elif isinstance(self.logprobs, list):
            logprobs = self.logprobs

        else:
            logprobs = self.logprobs

        messages: list[dict[str, Any]] | None | Unset
        if isinstance(self.messages, Unset):
            messages = UNSET
        elif isinstance(self.messages, list):
            messages = []
            for messages_type_0_item_data in self.messages:
                messages_type_0_item = messages_type_0_item_data.to_dict()
                messages.append(messages_type_0_item)

        else:
            messages = self.messages

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        prompt: None | str | Unset
        if isinstance(self.prompt, Unset):
            prompt = UNSET
        else:
            prompt = self.prompt

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        run: None | str | Unset
        if isinstance(self.run, Unset):
            run = UNSET
        else:
            run = self.run

        score_a: float | None | Unset
        if isinstance(self.score_a, Unset):
            score_a = UNSET
        else:
            score_a = self.score_a

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "response": response,
            }
        )
        if baseline_logprobs is not UNSET:
            field_dict["baseline_logprobs"] = baseline_logprobs
        if logprobs is not UNSET:
            field_dict["logprobs"] = logprobs
        if messages is not UNSET:
            field_dict["messages"] = messages
        if options is not UNSET:
            field_dict["options"] = options
        if prompt is not UNSET:
            field_dict["prompt"] = prompt
        if reference is not UNSET:
            field_dict["reference"] = reference
        if run is not UNSET:
            field_dict["run"] = run
        if score_a is not UNSET:
            field_dict["score_a"] = score_a

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.chat_message import ChatMessage
        from ..models.rlpr_input_options import RlprInputOptions

        d = dict(src_dict)
        response = d.pop("response")

        def _parse_baseline_logprobs(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                baseline_logprobs_type_0 = cast(list[float], data)

                return baseline_logprobs_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        baseline_logprobs = _parse_baseline_logprobs(d.pop("baseline_logprobs", UNSET))

        def _parse_logprobs(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                logprobs_type_0 = cast(list[float], data)

                return logprobs_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        logprobs = _parse_logprobs(d.pop("logprobs", UNSET))

        def _parse_messages(data: object) -> list[ChatMessage] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                messages_type_0 = []
                _messages_type_0 = data
                for messages_type_0_item_data in _messages_type_0:
                    messages_type_0_item = ChatMessage.from_dict(
                        messages_type_0_item_data
                    )

                    messages_type_0.append(messages_type_0_item)

                return messages_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ChatMessage] | None | Unset, data)

        messages = _parse_messages(d.pop("messages", UNSET))

        _options = d.pop("options", UNSET)
        options: RlprInputOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = RlprInputOptions.from_dict(_options)

        def _parse_prompt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        prompt = _parse_prompt(d.pop("prompt", UNSET))

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        def _parse_run(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        run = _parse_run(d.pop("run", UNSET))

        def _parse_score_a(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        score_a = _parse_score_a(d.pop("score_a", UNSET))

        rlpr_input = cls(
            response=response,
            baseline_logprobs=baseline_logprobs,
            logprobs=logprobs,
            messages=messages,
            options=options,
            prompt=prompt,
            reference=reference,
            run=run,
            score_a=score_a,
        )

        return rlpr_input
