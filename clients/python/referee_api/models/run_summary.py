from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RunSummary")


@_attrs_define
class RunSummary:
    """One run, as `GET /v1/runs` lists it.

    Attributes:
        created_at_ms (int): When its first and latest items were written, in Unix milliseconds.
        first_step (int):
        items (int): Items recorded (every replica's).
        last_step (int):
        run (str):
        updated_at_ms (int):
    """

    created_at_ms: int
    first_step: int
    items: int
    last_step: int
    run: str
    updated_at_ms: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at_ms = self.created_at_ms

        first_step = self.first_step

        items = self.items

        last_step = self.last_step

        run = self.run

        updated_at_ms = self.updated_at_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at_ms": created_at_ms,
                "first_step": first_step,
                "items": items,
                "last_step": last_step,
                "run": run,
                "updated_at_ms": updated_at_ms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at_ms = d.pop("created_at_ms")

        first_step = d.pop("first_step")

        items = d.pop("items")

        last_step = d.pop("last_step")

        run = d.pop("run")

        updated_at_ms = d.pop("updated_at_ms")

        run_summary = cls(
            created_at_ms=created_at_ms,
            first_step=first_step,
            items=items,
            last_step=last_step,
            run=run,
            updated_at_ms=updated_at_ms,
        )

        run_summary.additional_properties = d
        return run_summary

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
