from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ReloadRequest")


@_attrs_define
class ReloadRequest:
    """The body of `POST /v1/reward-models/rlpr/reload`.

    Attributes:
        model_dir (None | str | Unset): The checkpoint directory to load (on the server's file system); absent: the one
            in use
            is read again (its files were replaced in place).
    """

    model_dir: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        model_dir: None | str | Unset
        if isinstance(self.model_dir, Unset):
            model_dir = UNSET
        else:
            model_dir = self.model_dir

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if model_dir is not UNSET:
            field_dict["model_dir"] = model_dir

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_model_dir(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model_dir = _parse_model_dir(d.pop("model_dir", UNSET))

        reload_request = cls(
            model_dir=model_dir,
        )

        return reload_request
