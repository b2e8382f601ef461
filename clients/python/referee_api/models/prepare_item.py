from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.format_mode import FormatMode, check_format_mode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.chat_message import ChatMessage


T = TypeVar("T", bound="PrepareItem")


@_attrs_define
class PrepareItem:
    """One rollout to prepare for a trainer's own forward pass
    (`POST /v1/reward-models/rlpr/prepare`).

        Attributes:
            reference (str): The reference answer substituted into the response.
            response (str): The generated response, without padding.
            format_mode (FormatMode | Unset): The response structure a policy is trained to produce.
            messages (list[ChatMessage] | None | Unset): The prompt as chat messages, rendered by the model's chat template;
                instead of `prompt`.
            prompt (None | str | Unset): The prompt already rendered with the chat template, up to the assistant's turn;
                instead
                of `messages`.
            score_blank_answers (bool | Unset): Prepare a response whose answer is blank like any other, as the reference
                scores it
                (the `rlpr` option of the same name).
    """

    reference: str
    response: str
    format_mode: FormatMode | Unset = UNSET
    messages: list[ChatMessage] | None | Unset = UNSET
    prompt: None | str | Unset = UNSET
    score_blank_answers: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reference = self.reference

        response = self.response

        format_mode: str | Unset = UNSET
        if not isinstance(self.format_mode, Unset):
            format_mode = self.format_mode

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

        prompt: None | str | Unset
        if isinstance(self.prompt, Unset):
            prompt = UNSET
        else:
            prompt = self.prompt

        score_blank_answers = self.score_blank_answers

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reference": reference,
                "response": response,
            }
        )
        if format_mode is not UNSET:
            field_dict["format_mode"] = format_mode
        if messages is not UNSET:
            field_dict["messages"] = messages
        if prompt is not UNSET:
            field_dict["prompt"] = prompt
        if score_blank_answers is not UNSET:
            field_dict["score_blank_answers"] = score_blank_answers

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.chat_message import ChatMessage

        d = dict(src_dict)
        reference = d.pop("reference")

        response = d.pop("response")

        _format_mode = d.pop("format_mode", UNSET)
        format_mode: FormatMode | Unset
        if isinstance(_format_mode, Unset):
            format_mode = UNSET
        else:
            format_mode = check_format_mode(_format_mode)

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

        def _parse_prompt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        prompt = _parse_prompt(d.pop("prompt", UNSET))

        score_blank_answers = d.pop("score_blank_answers", UNSET)

        prepare_item = cls(
            reference=reference,
            response=response,
            format_mode=format_mode,
            messages=messages,
            prompt=prompt,
            score_blank_answers=score_blank_answers,
        )

        return prepare_item
