from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="GenerateInstances")


@_attrs_define
class GenerateInstances:
    """Which instances to generate. The same (task, level, seed) gives the same instance on every
    version of the task's generator, so a trainer only needs to store the seed.

        Attributes:
            level (int): Difficulty level, from 1 to the task's highest (see `GET /v1/environments`).
            seed (int): Seed of the first instance; the i-th uses `seed + i`.
            count (int | Unset): How many instances, 1 to 256. Default: 1.
    """

    level: int
    seed: int
    count: int | Unset = 1

    def to_dict(self) -> dict[str, Any]:
        level = self.level

        seed = self.seed

        count = self.count

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "level": level,
                "seed": seed,
            }
        )
        if count is not UNSET:
            field_dict["count"] = count

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        level = d.pop("level")

        seed = d.pop("seed")

        count = d.pop("count", UNSET)

        generate_instances = cls(
            level=level,
            seed=seed,
            count=count,
        )

        return generate_instances
