from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.process_check_type_0_by import (
    ProcessCheckType0By,
    check_process_check_type_0_by,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProcessCheckType0")


@_attrs_define
class ProcessCheckType0:
    """The server's LLM judge (`[judge]`) reads the problem, the reference answer if given, and
    the numbered steps, and judges each step correct (1) or incorrect (0), in one call.

        Attributes:
            by (ProcessCheckType0By):
            problem (str): The problem the response solves.
            reference (None | str | Unset): The reference answer, shown to the judge.
    """

    by: ProcessCheckType0By
    problem: str
    reference: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        by: str = self.by

        problem = self.problem

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "by": by,
                "problem": problem,
            }
        )
        if reference is not UNSET:
            field_dict["reference"] = reference

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        by = check_process_check_type_0_by(d.pop("by"))

        problem = d.pop("problem")

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        process_check_type_0 = cls(
            by=by,
            problem=problem,
            reference=reference,
        )

        process_check_type_0.additional_properties = d
        return process_check_type_0

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
