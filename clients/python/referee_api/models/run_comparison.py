from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.across_runs import AcrossRuns
    from ..models.run_totals import RunTotals


T = TypeVar("T", bound="RunComparison")


@_attrs_define
class RunComparison:
    """What `POST /v1/runs/compare` reports.

    Attributes:
        runs (list[RunTotals]): Per run, in the order asked for.
        summary (list[AcrossRuns]): Per verifier, across the runs.
    """

    runs: list[RunTotals]
    summary: list[AcrossRuns]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        runs = []
        for runs_item_data in self.runs:
            runs_item = runs_item_data.to_dict()
            runs.append(runs_item)

        summary = []
        for summary_item_data in self.summary:
            summary_item = summary_item_data.to_dict()
            summary.append(summary_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "runs": runs,
                "summary": summary,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.across_runs import AcrossRuns
        from ..models.run_totals import RunTotals

        d = dict(src_dict)
        runs = []
        _runs = d.pop("runs")
        for runs_item_data in _runs:
            runs_item = RunTotals.from_dict(runs_item_data)

            runs.append(runs_item)

        summary = []
        _summary = d.pop("summary")
        for summary_item_data in _summary:
            summary_item = AcrossRuns.from_dict(summary_item_data)

            summary.append(summary_item)

        run_comparison = cls(
            runs=runs,
            summary=summary,
        )

        run_comparison.additional_properties = d
        return run_comparison

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
