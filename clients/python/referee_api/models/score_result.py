from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.status import Status, check_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.score_result_details import ScoreResultDetails


T = TypeVar("T", bound="ScoreResult")


@_attrs_define
class ScoreResult:
    """The verdict of one item, as returned by the API.

    Attributes:
        details (ScoreResultDetails): Verifier-specific details; error verdicts carry their reason under `error`.
        elapsed_us (int): Microseconds the item's verifier batch took (0 for cached and malformed items).
        score (float): The reward. Finite; 0 for every non-judging status.
        status (Status): The outcome class of one scored item.

            Trainers use it to tell a wrong answer (`incorrect`) from an item the scorer could not judge
            (`invalid_input`, `internal_error`), and to mask the latter instead of training on it.
        id (None | str | Unset): The item's `id`, echoed; null when the item had none.
        verifier (None | str | Unset): The verifier that judged the item; null when the item named none.
    """

    details: ScoreResultDetails
    elapsed_us: int
    score: float
    status: Status
    id: None | str | Unset = UNSET
    verifier: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        details = self.details.to_dict()

        elapsed_us = self.elapsed_us

        score = self.score

        status: str = self.status

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        verifier: None | str | Unset
        if isinstance(self.verifier, Unset):
            verifier = UNSET
        else:
            verifier = self.verifier

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "details": details,
                "elapsed_us": elapsed_us,
                "score": score,
                "status": status,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if verifier is not UNSET:
            field_dict["verifier"] = verifier

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.score_result_details import ScoreResultDetails

        d = dict(src_dict)
        details = ScoreResultDetails.from_dict(d.pop("details"))

        elapsed_us = d.pop("elapsed_us")

        score = d.pop("score")

        status = check_status(d.pop("status"))

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        def _parse_verifier(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        verifier = _parse_verifier(d.pop("verifier", UNSET))

        score_result = cls(
            details=details,
            elapsed_us=elapsed_us,
            score=score,
            status=status,
            id=id,
            verifier=verifier,
        )

        score_result.additional_properties = d
        return score_result

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
