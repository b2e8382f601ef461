from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PreparedSequence")


@_attrs_define
class PreparedSequence:
    """Token ids for a forward pass and the scored positions among them.

    Attributes:
        ids (list[int]): The whole text's token ids (prompt and substituted response, or the baseline text).
        positions (list[int]): Indices into `ids` of the reference-answer tokens, ascending: send the log-probs of
            these tokens (each predicted from the ones before it), in this order.
    """

    ids: list[int]
    positions: list[int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ids = self.ids

        positions = self.positions

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ids": ids,
                "positions": positions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ids = cast(list[int], d.pop("ids"))

        positions = cast(list[int], d.pop("positions"))

        prepared_sequence = cls(
            ids=ids,
            positions=positions,
        )

        prepared_sequence.additional_properties = d
        return prepared_sequence

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
