from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.prepared_sequence import PreparedSequence


T = TypeVar("T", bound="PreparedItem")


@_attrs_define
class PreparedItem:
    """One prepared rollout: `ok` with both sequences, `unparseable` (no answer structure: nothing
    is scored, send empty `logprobs`), or `invalid_input` with the reason.

        Attributes:
            status (str): `ok`, `unparseable` or `invalid_input`.
            baseline (None | PreparedSequence | Unset):
            message (None | str | Unset): Why the item is not `ok`.
            sequence (None | PreparedSequence | Unset):
    """

    status: str
    baseline: None | PreparedSequence | Unset = UNSET
    message: None | str | Unset = UNSET
    sequence: None | PreparedSequence | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.prepared_sequence import PreparedSequence

        status = self.status

        baseline: dict[str, Any] | None | Unset
        if isinstance(self.baseline, Unset):
            baseline = UNSET
        elif isinstance(self.baseline, PreparedSequence):
            baseline = self.baseline.to_dict()
        else:
            baseline = self.baseline

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        sequence: dict[str, Any] | None | Unset
        if isinstance(self.sequence, Unset):
            sequence = UNSET
        elif isinstance(self.sequence, PreparedSequence):
            sequence = self.sequence.to_dict()
        else:
            sequence = self.sequence

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
            }
        )
        if baseline is not UNSET:
            field_dict["baseline"] = baseline
        if message is not UNSET:
            field_dict["message"] = message
        if sequence is not UNSET:
            field_dict["sequence"] = sequence

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.prepared_sequence import PreparedSequence

        d = dict(src_dict)
        status = d.pop("status")

        def _parse_baseline(data: object) -> None | PreparedSequence | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                baseline_type_0 = PreparedSequence.from_dict(data)

                return baseline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PreparedSequence | Unset, data)

        baseline = _parse_baseline(d.pop("baseline", UNSET))

        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))

        def _parse_sequence(data: object) -> None | PreparedSequence | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                sequence_type_0 = PreparedSequence.from_dict(data)

                return sequence_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PreparedSequence | Unset, data)

        sequence = _parse_sequence(d.pop("sequence", UNSET))

        prepared_item = cls(
            status=status,
            baseline=baseline,
            message=message,
            sequence=sequence,
        )

        prepared_item.additional_properties = d
        return prepared_item

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
