from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.direction import Direction, check_direction

if TYPE_CHECKING:
    from ..models.level_info import LevelInfo


T = TypeVar("T", bound="TaskInfo")


@_attrs_define
class TaskInfo:
    """One task as listed by `GET /v1/environments`.

    Attributes:
        answer_format (str): The answer format the prompt asks for.
        direction (Direction): Whether smaller or larger objective values are better.
        generator_version (int): Version of the generator; instances are reproducible per (task, level, seed, version).
        levels (list[LevelInfo]): The difficulty levels.
        summary (str): What the task asks and how it is scored.
        task (str): Stable task id, used in URLs and in the `np` verifier's `task` field.
    """

    answer_format: str
    direction: Direction
    generator_version: int
    levels: list[LevelInfo]
    summary: str
    task: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        answer_format = self.answer_format

        direction: str = self.direction

        generator_version = self.generator_version

        levels = []
        for levels_item_data in self.levels:
            levels_item = levels_item_data.to_dict()
            levels.append(levels_item)

        summary = self.summary

        task = self.task

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "answer_format": answer_format,
                "direction": direction,
                "generator_version": generator_version,
                "levels": levels,
                "summary": summary,
                "task": task,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.level_info import LevelInfo

        d = dict(src_dict)
        answer_format = d.pop("answer_format")

        direction = check_direction(d.pop("direction"))

        generator_version = d.pop("generator_version")

        levels = []
        _levels = d.pop("levels")
        for levels_item_data in _levels:
            levels_item = LevelInfo.from_dict(levels_item_data)

            levels.append(levels_item)

        summary = d.pop("summary")

        task = d.pop("task")

        task_info = cls(
            answer_format=answer_format,
            direction=direction,
            generator_version=generator_version,
            levels=levels,
            summary=summary,
            task=task,
        )

        task_info.additional_properties = d
        return task_info

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
