from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.rlpr_score_item_verifier import (
    RlprScoreItemVerifier,
    check_rlpr_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rlpr_input import RlprInput


T = TypeVar("T", bound="RlprScoreItem")


@_attrs_define
class RlprScoreItem:
    """An item for `rlpr`. RLPR probability reward: the mean probability (or mean log-prob, geometric mean, product) of the
    reference answer's tokens after the response's reasoning, debiased against the no-reasoning baseline, mixed with the
    format term, with the repetition penalty. Scored from log-probs the trainer supplies, or by the configured model
    (local or a remote completions server) from the prompt and the reference.

        Attributes:
            input_ (RlprInput): An RLPR item: the response, and either the log-probs the trainer computed (`logprobs`) or
                what the server's model needs to compute them (`prompt` or `messages`, and `reference`).
            verifier (RlprScoreItemVerifier):
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: RlprInput
    verifier: RlprScoreItemVerifier
    id: None | str | Unset = UNSET
    label: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        input_ = self.input_.to_dict()

        verifier: str = self.verifier

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
                "verifier": verifier,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if label is not UNSET:
            field_dict["label"] = label

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rlpr_input import RlprInput

        d = dict(src_dict)
        input_ = RlprInput.from_dict(d.pop("input"))

        verifier = check_rlpr_score_item_verifier(d.pop("verifier"))

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

        rlpr_score_item = cls(
            input_=input_,
            verifier=verifier,
            id=id,
            label=label,
        )

        return rlpr_score_item
