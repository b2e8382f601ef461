from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.verifier_score_item_input import VerifierScoreItemInput


T = TypeVar("T", bound="VerifierScoreItem")


@_attrs_define
class VerifierScoreItem:
    """One item of `POST /v1/verifiers/{id}/score`.

    Attributes:
        input_ (VerifierScoreItemInput): The verifier's input, as its schema in `GET /v1/verifiers` describes.
        id (None | str | Unset): Echoed in the result.
        label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: VerifierScoreItemInput
    id: None | str | Unset = UNSET
    label: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        input_ = self.input_.to_dict()

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "input": input_,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if label is not UNSET:
            field_dict["label"] = label

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.verifier_score_item_input import VerifierScoreItemInput

        d = dict(src_dict)
        input_ = VerifierScoreItemInput.from_dict(d.pop("input"))

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        verifier_score_item = cls(
            input_=input_,
            id=id,
            label=label,
        )

        return verifier_score_item
