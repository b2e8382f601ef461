from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CompareRequest")


@_attrs_define
class CompareRequest:
    """Runs to compare, over which steps.

    Attributes:
        runs (list[str]): The runs: 1 to 1000 names of recorded runs (a name given twice counts once).
        from_step (int | None | Unset): The first step counted in every run (default: each run's first).
        to_step (int | None | Unset): The last step counted in every run, inclusive (default: each run's latest).
    """

    runs: list[str]
    from_step: int | None | Unset = UNSET
    to_step: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        runs = self.runs

        from_step: int | None | Unset
        if isinstance(self.from_step, Unset):
            from_step = UNSET
        else:
            from_step = self.from_step

        to_step: int | None | Unset
        if isinstance(self.to_step, Unset):
            to_step = UNSET
        else:
            to_step = self.to_step

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "runs": runs,
            }
        )
        if from_step is not UNSET:
            field_dict["from_step"] = from_step
        if to_step is not UNSET:
            field_dict["to_step"] = to_step

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        runs = cast(list[str], d.pop("runs"))

        def _parse_from_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        from_step = _parse_from_step(d.pop("from_step", UNSET))

        def _parse_to_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        to_step = _parse_to_step(d.pop("to_step", UNSET))

        compare_request = cls(
            runs=runs,
            from_step=from_step,
            to_step=to_step,
        )

        return compare_request
