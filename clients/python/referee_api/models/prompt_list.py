from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.prompt_rate import PromptRate


T = TypeVar("T", bound="PromptList")


@_attrs_define
class PromptList:
    """A page of a run's prompts with their pass rates.

    Attributes:
        latest_step (int): The run's latest step, which the decay counts back from.
        prompts (list[PromptRate]):
        run (str):
        total (int): Prompts that pass the filters (on every page).
        next_offset (int | None | Unset): The `offset` of the next page; absent on the last.
    """

    latest_step: int
    prompts: list[PromptRate]
    run: str
    total: int
    next_offset: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        latest_step = self.latest_step

        prompts = []
        for prompts_item_data in self.prompts:
            prompts_item = prompts_item_data.to_dict()
            prompts.append(prompts_item)

        run = self.run

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
                "latest_step": latest_step,
                "prompts": prompts,
                "run": run,
                "total": total,
            }
        )
        if next_offset is not UNSET:
            field_dict["next_offset"] = next_offset

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.prompt_rate import PromptRate

        d = dict(src_dict)
        latest_step = d.pop("latest_step")

        prompts = []
        _prompts = d.pop("prompts")
        for prompts_item_data in _prompts:
            prompts_item = PromptRate.from_dict(prompts_item_data)

            prompts.append(prompts_item)

        run = d.pop("run")

        total = d.pop("total")

        def _parse_next_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        next_offset = _parse_next_offset(d.pop("next_offset", UNSET))

        prompt_list = cls(
            latest_step=latest_step,
            prompts=prompts,
            run=run,
            total=total,
            next_offset=next_offset,
        )

        prompt_list.additional_properties = d
        return prompt_list

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
