from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.step_stats import StepStats
    from ..models.verifier_summary import VerifierSummary


T = TypeVar("T", bound="RunStats")


@_attrs_define
class RunStats:
    """Everything `GET /v1/runs/{run}/stats` reports.

    Attributes:
        items (int):
        run (str):
        steps (list[StepStats]): Per step, oldest first.
        summary (list[VerifierSummary]): Per verifier, over every step of the range.
        first_step (int | None | Unset): The first and last step with items in the range asked for.
        last_step (int | None | Unset):
    """

    items: int
    run: str
    steps: list[StepStats]
    summary: list[VerifierSummary]
    first_step: int | None | Unset = UNSET
    last_step: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = self.items

        run = self.run

        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)

        summary = []
        for summary_item_data in self.summary:
            summary_item = summary_item_data.to_dict()
            summary.append(summary_item)

        first_step: int | None | Unset
        if isinstance(self.first_step, Unset):
            first_step = UNSET
        else:
            first_step = self.first_step

        last_step: int | None | Unset
        if isinstance(self.last_step, Unset):
            last_step = UNSET
        else:
            last_step = self.last_step

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "run": run,
                "steps": steps,
                "summary": summary,
            }
        )
        if first_step is not UNSET:
            field_dict["first_step"] = first_step
        if last_step is not UNSET:
            field_dict["last_step"] = last_step

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.step_stats import StepStats
        from ..models.verifier_summary import VerifierSummary

        d = dict(src_dict)
        items = d.pop("items")

        run = d.pop("run")

        steps = []
        _steps = d.pop("steps")
        for steps_item_data in _steps:
            steps_item = StepStats.from_dict(steps_item_data)

            steps.append(steps_item)

        summary = []
        _summary = d.pop("summary")
        for summary_item_data in _summary:
            summary_item = VerifierSummary.from_dict(summary_item_data)

            summary.append(summary_item)

        def _parse_first_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        first_step = _parse_first_step(d.pop("first_step", UNSET))

        def _parse_last_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        last_step = _parse_last_step(d.pop("last_step", UNSET))

        run_stats = cls(
            items=items,
            run=run,
            steps=steps,
            summary=summary,
            first_step=first_step,
            last_step=last_step,
        )

        run_stats.additional_properties = d
        return run_stats

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
