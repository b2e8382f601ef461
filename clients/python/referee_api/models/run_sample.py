from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.status import Status, check_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.run_sample_details import RunSampleDetails


T = TypeVar("T", bound="RunSample")


@_attrs_define
class RunSample:
    """A kept item, as `GET /v1/runs/{run}/samples` lists it.

    Attributes:
        created_at_ms (int): When the sample was written, in Unix milliseconds.
        details (RunSampleDetails): The verdict's details (long strings and arrays cut when they exceeded the cap).
        id (str): The sample's id.
        latency_us (int): Microseconds the item's verifier batch took.
        score (float):
        status (Status): The outcome class of one scored item.

            Trainers use it to tell a wrong answer (`incorrect`) from an item the scorer could not judge
            (`invalid_input`, `internal_error`), and to mask the latter instead of training on it.
        step (int):
        truncated (bool): Whether the response, the extracted answer or the details were cut to the cap.
        verifier (str):
        extracted (None | str | Unset): The verifier's extracted answer (`details.extracted`), when it reports one.
        group (None | str | Unset):
        item_id (None | str | Unset): The item's `id`, as the request gave it.
        prompt_id (None | str | Unset):
        response (None | str | Unset): The input's `response` (up to `runs.samples.max_text_bytes`); null when the input
            had no
            string `response`.
        response_bytes (int | None | Unset): The whole response's length in bytes (more than `response` holds when it
            was cut).
    """

    created_at_ms: int
    details: RunSampleDetails
    id: str
    latency_us: int
    score: float
    status: Status
    step: int
    truncated: bool
    verifier: str
    extracted: None | str | Unset = UNSET
    group: None | str | Unset = UNSET
    item_id: None | str | Unset = UNSET
    prompt_id: None | str | Unset = UNSET
    response: None | str | Unset = UNSET
    response_bytes: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at_ms = self.created_at_ms

        details = self.details.to_dict()

        id = self.id

        latency_us = self.latency_us

        score = self.score

        status: str = self.status

        step = self.step

        truncated = self.truncated

        verifier = self.verifier

        extracted: None | str | Unset
        if isinstance(self.extracted, Unset):
            extracted = UNSET
        else:
            extracted = self.extracted

        group: None | str | Unset
        if isinstance(self.group, Unset):
            group = UNSET
        else:
            group = self.group

        item_id: None | str | Unset
        if isinstance(self.item_id, Unset):
            item_id = UNSET
        else:
            item_id = self.item_id

        prompt_id: None | str | Unset
        if isinstance(self.prompt_id, Unset):
            prompt_id = UNSET
        else:
            prompt_id = self.prompt_id

        response: None | str | Unset
        if isinstance(self.response, Unset):
            response = UNSET
        else:
            response = self.response

        response_bytes: int | None | Unset
        if isinstance(self.response_bytes, Unset):
            response_bytes = UNSET
        else:
            response_bytes = self.response_bytes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at_ms": created_at_ms,
                "details": details,
                "id": id,
                "latency_us": latency_us,
                "score": score,
                "status": status,
                "step": step,
                "truncated": truncated,
                "verifier": verifier,
            }
        )
        if extracted is not UNSET:
            field_dict["extracted"] = extracted
        if group is not UNSET:
            field_dict["group"] = group
        if item_id is not UNSET:
            field_dict["item_id"] = item_id
        if prompt_id is not UNSET:
            field_dict["prompt_id"] = prompt_id
        if response is not UNSET:
            field_dict["response"] = response
        if response_bytes is not UNSET:
            field_dict["response_bytes"] = response_bytes

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.run_sample_details import RunSampleDetails

        d = dict(src_dict)
        created_at_ms = d.pop("created_at_ms")

        details = RunSampleDetails.from_dict(d.pop("details"))

        id = d.pop("id")

        latency_us = d.pop("latency_us")

        score = d.pop("score")

        status = check_status(d.pop("status"))

        step = d.pop("step")

        truncated = d.pop("truncated")

        verifier = d.pop("verifier")

        def _parse_extracted(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        extracted = _parse_extracted(d.pop("extracted", UNSET))

        def _parse_group(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        group = _parse_group(d.pop("group", UNSET))

        def _parse_item_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        item_id = _parse_item_id(d.pop("item_id", UNSET))

        def _parse_prompt_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        prompt_id = _parse_prompt_id(d.pop("prompt_id", UNSET))

        def _parse_response(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        response = _parse_response(d.pop("response", UNSET))

        def _parse_response_bytes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        response_bytes = _parse_response_bytes(d.pop("response_bytes", UNSET))

        run_sample = cls(
            created_at_ms=created_at_ms,
            details=details,
            id=id,
            latency_us=latency_us,
            score=score,
            status=status,
            step=step,
            truncated=truncated,
            verifier=verifier,
            extracted=extracted,
            group=group,
            item_id=item_id,
            prompt_id=prompt_id,
            response=response,
            response_bytes=response_bytes,
        )

        run_sample.additional_properties = d
        return run_sample

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
