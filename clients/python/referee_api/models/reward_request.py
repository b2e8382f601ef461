from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RewardRequest")


@_attrs_define
class RewardRequest:
    """What OpenRLHF sends. Fields other than these (some versions send more) are ignored.

    Attributes:
        query (list[str]): The rollouts, each the prompt followed by the response.
        labels (list[Any] | None | Unset): The references, by position. A string (or number) fills the verifier's label
            field; an
            object is merged into the verifier's input (e.g. `{"reference": "B", "options": {...}}`);
            null or a missing label leaves the field unset, and the verifier then judges the item
            `invalid_input` if it needs one.
        prompts (list[str] | None | Unset): The prompts, by position. When a query starts with its prompt, the response
            is the rest.
            When it does not (OpenRLHF left-truncates long prompts), the response is what follows
            the last occurrence in the query of the prompt's final assistant-turn marker of a known
            chat template (ChatML, Llama 3 and 4, Gemma, DeepSeek, Mistral, Phi-3, Granite,
            Command R, Harmony) together with the prompt's text after that marker; without one the
            query is answered unjudged (`invalid_input`, reward 0, `judged` 0). A query without a
            prompt is split after its last known marker, or scored whole when it has none.
    """

    query: list[str]
    labels: list[Any] | None | Unset = UNSET
    prompts: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        query = self.query

        labels: list[Any] | None | Unset
        if isinstance(self.labels, Unset):
            labels = UNSET
        elif isinstance(self.labels, list):
            labels = self.labels

        else:
            labels = self.labels

        prompts: list[str] | None | Unset
        if isinstance(self.prompts, Unset):
            prompts = UNSET
        elif isinstance(self.prompts, list):
            prompts = self.prompts

        else:
            prompts = self.prompts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "query": query,
            }
        )
        if labels is not UNSET:
            field_dict["labels"] = labels
        if prompts is not UNSET:
            field_dict["prompts"] = prompts

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        query = cast(list[str], d.pop("query"))

        def _parse_labels(data: object) -> list[Any] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                labels_type_0 = cast(list[Any], data)

                return labels_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None | Unset, data)

        labels = _parse_labels(d.pop("labels", UNSET))

        def _parse_prompts(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                prompts_type_0 = cast(list[str], data)

                return prompts_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        prompts = _parse_prompts(d.pop("prompts", UNSET))

        reward_request = cls(
            query=query,
            labels=labels,
            prompts=prompts,
        )

        reward_request.additional_properties = d
        return reward_request

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
