from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_state import JobState, check_job_state
from ..types import UNSET, Unset

T = TypeVar("T", bound="JobStatus")


@_attrs_define
class JobStatus:
    """A job's state and progress, as `GET /v1/jobs/{id}` reports it.

    Attributes:
        chunk_size (int): Items per chunk.
        chunks_done (int): Chunks finished.
        chunks_total (int): Chunks the job was split into.
        created_at_ms (int): When the job was stored, in Unix milliseconds.
        id (str): The job id.
        scored_items (int): Items with a result.
        state (JobState): Where a job is in its life.
        total_items (int): Items in the upload.
        finished_at_ms (int | None | Unset): When its last chunk finished, in Unix milliseconds.
    """

    chunk_size: int
    chunks_done: int
    chunks_total: int
    created_at_ms: int
    id: str
    scored_items: int
    state: JobState
    total_items: int
    finished_at_ms: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chunk_size = self.chunk_size

        chunks_done = self.chunks_done

        chunks_total = self.chunks_total

        created_at_ms = self.created_at_ms

        id = self.id

        scored_items = self.scored_items

        state: str = self.state

        total_items = self.total_items

        finished_at_ms: int | None | Unset
        if isinstance(self.finished_at_ms, Unset):
            finished_at_ms = UNSET
        else:
            finished_at_ms = self.finished_at_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunk_size": chunk_size,
                "chunks_done": chunks_done,
                "chunks_total": chunks_total,
                "created_at_ms": created_at_ms,
                "id": id,
                "scored_items": scored_items,
                "state": state,
                "total_items": total_items,
            }
        )
        if finished_at_ms is not UNSET:
            field_dict["finished_at_ms"] = finished_at_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        chunk_size = d.pop("chunk_size")

        chunks_done = d.pop("chunks_done")

        chunks_total = d.pop("chunks_total")

        created_at_ms = d.pop("created_at_ms")

        id = d.pop("id")

        scored_items = d.pop("scored_items")

        state = check_job_state(d.pop("state"))

        total_items = d.pop("total_items")

        def _parse_finished_at_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        finished_at_ms = _parse_finished_at_ms(d.pop("finished_at_ms", UNSET))

        job_status = cls(
            chunk_size=chunk_size,
            chunks_done=chunks_done,
            chunks_total=chunks_total,
            created_at_ms=created_at_ms,
            id=id,
            scored_items=scored_items,
            state=state,
            total_items=total_items,
            finished_at_ms=finished_at_ms,
        )

        job_status.additional_properties = d
        return job_status

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
