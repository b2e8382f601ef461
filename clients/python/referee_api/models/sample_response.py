from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sampling_decision import SamplingDecision


T = TypeVar("T", bound="SampleResponse")


@_attrs_define
class SampleResponse:
    """The decision on every candidate.

    Attributes:
        decisions (list[SamplingDecision]):
        run (str):
        sample (list[str] | None | Unset): For `difficulty` with a `count`: the prompts drawn, in draw order.
    """

    decisions: list[SamplingDecision]
    run: str
    sample: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decisions = []
        for decisions_item_data in self.decisions:
            decisions_item = decisions_item_data.to_dict()
            decisions.append(decisions_item)

        run = self.run

        sample: list[str] | None | Unset
        if isinstance(self.sample, Unset):
            sample = UNSET
        elif isinstance(self.sample, list):
            sample = self.sample

        else:
            sample = self.sample

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decisions": decisions,
                "run": run,
            }
        )
        if sample is not UNSET:
            field_dict["sample"] = sample

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.sampling_decision import SamplingDecision

        d = dict(src_dict)
        decisions = []
        _decisions = d.pop("decisions")
        for decisions_item_data in _decisions:
            decisions_item = SamplingDecision.from_dict(decisions_item_data)

            decisions.append(decisions_item)

        run = d.pop("run")

        def _parse_sample(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                sample_type_0 = cast(list[str], data)

                return sample_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        sample = _parse_sample(d.pop("sample", UNSET))

        sample_response = cls(
            decisions=decisions,
            run=run,
            sample=sample,
        )

        sample_response.additional_properties = d
        return sample_response

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
