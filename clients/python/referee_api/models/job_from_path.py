from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="JobFromPath")


@_attrs_define
class JobFromPath:
    """A JSONL file on the server to score, for servers that allow paths (`jobs.allowed_paths`).

    Attributes:
        path (str): Absolute path of a JSONL file inside one of the allowed directories.
    """

    path: str

    def to_dict(self) -> dict[str, Any]:
        path = self.path

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "path": path,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        path = d.pop("path")

        job_from_path = cls(
            path=path,
        )

        return job_from_path
