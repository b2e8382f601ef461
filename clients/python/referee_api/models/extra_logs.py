from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ExtraLogs")


@_attrs_define
class ExtraLogs:
    """Per-item numbers for OpenRLHF's logs, each a list parallel to `rewards`.

    Attributes:
        correct (list[float]): 1 where the verdict is `correct`, else 0.
        judged (list[float]): 0 where the item could not be judged (`timeout`, `resource_limit`, `invalid_input`,
            `internal_error`, including a response that could not be told from its prompt), else 1.
    """

    correct: list[float]
    judged: list[float]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        correct = self.correct

        judged = self.judged

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "correct": correct,
                "judged": judged,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        correct = cast(list[float], d.pop("correct"))

        judged = cast(list[float], d.pop("judged"))

        extra_logs = cls(
            correct=correct,
            judged=judged,
        )

        extra_logs.additional_properties = d
        return extra_logs

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
