from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.prepare_item import PrepareItem


T = TypeVar("T", bound="PrepareRequest")


@_attrs_define
class PrepareRequest:
    """The body of `POST /v1/reward-models/rlpr/prepare`.

    Attributes:
        items (list[PrepareItem]): The rollouts, at most `server.max_batch_items`.
    """

    items: list[PrepareItem]

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "items": items,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.prepare_item import PrepareItem

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = PrepareItem.from_dict(items_item_data)

            items.append(items_item)

        prepare_request = cls(
            items=items,
        )

        return prepare_request
