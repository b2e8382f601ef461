from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.status import Status, check_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.appealed_verdict_details_type_0 import AppealedVerdictDetailsType0


T = TypeVar("T", bound="AppealedVerdict")


@_attrs_define
class AppealedVerdict:
    """One side of an overturn.

    Attributes:
        score (float):
        status (Status): The outcome class of one scored item.

            Trainers use it to tell a wrong answer (`incorrect`) from an item the scorer could not judge
            (`invalid_input`, `internal_error`), and to mask the latter instead of training on it.
        verifier (str): The verifier that gave it.
        details (AppealedVerdictDetailsType0 | None | Unset): The checker's details (absent for the verifier's side,
            which the response carried).
    """

    score: float
    status: Status
    verifier: str
    details: AppealedVerdictDetailsType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.appealed_verdict_details_type_0 import AppealedVerdictDetailsType0

        score = self.score

        status: str = self.status

        verifier = self.verifier

        details: dict[str, Any] | None | Unset
        if isinstance(self.details, Unset):
            details = UNSET
        elif isinstance(self.details, AppealedVerdictDetailsType0):
            details = self.details.to_dict()
        else:
            details = self.details

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "score": score,
                "status": status,
                "verifier": verifier,
            }
        )
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.appealed_verdict_details_type_0 import AppealedVerdictDetailsType0

        d = dict(src_dict)
        score = d.pop("score")

        status = check_status(d.pop("status"))

        verifier = d.pop("verifier")

        def _parse_details(data: object) -> AppealedVerdictDetailsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = AppealedVerdictDetailsType0.from_dict(data)

                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AppealedVerdictDetailsType0 | None | Unset, data)

        details = _parse_details(d.pop("details", UNSET))

        appealed_verdict = cls(
            score=score,
            status=status,
            verifier=verifier,
            details=details,
        )

        appealed_verdict.additional_properties = d
        return appealed_verdict

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
