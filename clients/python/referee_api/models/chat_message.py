from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

T = TypeVar("T", bound="ChatMessage")


@_attrs_define
class ChatMessage:
    """One chat message, rendered into a prompt by the source's chat template.

    Attributes:
        content (str): The message text.
        role (str): `system`, `user` or `assistant`.
    """

    content: str
    role: str

    def to_dict(self) -> dict[str, Any]:
        content = self.content

        role = self.role

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "content": content,
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        content = d.pop("content")

        role = d.pop("role")

        chat_message = cls(
            content=content,
            role=role,
        )

        return chat_message
