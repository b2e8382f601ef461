from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.run_sample import RunSample
    from ..models.sample_retention import SampleRetention


T = TypeVar("T", bound="SampleList")


@_attrs_define
class SampleList:
    """A page of a run's samples.

    Attributes:
        retention (SampleRetention): The text retention settings in force, as a sample list reports them.
        run (str):
        samples (list[RunSample]):
        total (int): Samples that pass the filters (on every page).
        next_offset (int | None | Unset): The `offset` of the next page; absent on the last.
    """

    retention: SampleRetention
    run: str
    samples: list[RunSample]
    total: int
    next_offset: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        retention = self.retention.to_dict()

        run = self.run

        samples = []
        for samples_item_data in self.samples:
            samples_item = samples_item_data.to_dict()
            samples.append(samples_item)

        total = self.total

        next_offset: int | None | Unset
        if isinstance(self.next_offset, Unset):
            next_offset = UNSET
        else:
            next_offset = self.next_offset

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "retention": retention,
                "run": run,
                "samples": samples,
                "total": total,
            }
        )
        if next_offset is not UNSET:
            field_dict["next_offset"] = next_offset

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.run_sample import RunSample
        from ..models.sample_retention import SampleRetention

        d = dict(src_dict)
        retention = SampleRetention.from_dict(d.pop("retention"))

        run = d.pop("run")

        samples = []
        _samples = d.pop("samples")
        for samples_item_data in _samples:
            samples_item = RunSample.from_dict(samples_item_data)

            samples.append(samples_item)

        total = d.pop("total")

        def _parse_next_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        next_offset = _parse_next_offset(d.pop("next_offset", UNSET))

        sample_list = cls(
            retention=retention,
            run=run,
            samples=samples,
            total=total,
            next_offset=next_offset,
        )

        sample_list.additional_properties = d
        return sample_list

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
