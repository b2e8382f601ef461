from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.appealed_verdict import AppealedVerdict
    from ..models.overturn_input import OverturnInput


T = TypeVar("T", bound="Overturn")


@_attrs_define
class Overturn:
    """A verdict the appeal checker overturned.

    Attributes:
        checker (AppealedVerdict): One side of an overturn.
        created_at_ms (int): When the overturn was recorded, in Unix milliseconds.
        input_ (OverturnInput): The input the verifier judged (the checker saw it with the appeal's input patch).
        verdict (AppealedVerdict): One side of an overturn.
        item_id (None | str | Unset): The item's `id`, when it had one.
    """

    checker: AppealedVerdict
    created_at_ms: int
    input_: OverturnInput
    verdict: AppealedVerdict
    item_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checker = self.checker.to_dict()

        created_at_ms = self.created_at_ms

        input_ = self.input_.to_dict()

        verdict = self.verdict.to_dict()

        item_id: None | str | Unset
        if isinstance(self.item_id, Unset):
            item_id = UNSET
        else:
            item_id = self.item_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checker": checker,
                "created_at_ms": created_at_ms,
                "input": input_,
                "verdict": verdict,
            }
        )
        if item_id is not UNSET:
            field_dict["item_id"] = item_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.appealed_verdict import AppealedVerdict
        from ..models.overturn_input import OverturnInput

        d = dict(src_dict)
        checker = AppealedVerdict.from_dict(d.pop("checker"))

        created_at_ms = d.pop("created_at_ms")

        input_ = OverturnInput.from_dict(d.pop("input"))

        verdict = AppealedVerdict.from_dict(d.pop("verdict"))

        def _parse_item_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        item_id = _parse_item_id(d.pop("item_id", UNSET))

        overturn = cls(
            checker=checker,
            created_at_ms=created_at_ms,
            input_=input_,
            verdict=verdict,
            item_id=item_id,
        )

        overturn.additional_properties = d
        return overturn

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
