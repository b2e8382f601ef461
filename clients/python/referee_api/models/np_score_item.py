from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.np_score_item_verifier import (
    NpScoreItemVerifier,
    check_np_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.np_input import NpInput


T = TypeVar("T", bound="NpScoreItem")


@_attrs_define
class NpScoreItem:
    """An item for `np`. NP optimisation environments (TSP, knapsack, graph colouring, ...): parses the answer without
    evaluating it, checks feasibility with typed errors, and rewards quality against an exact, planted-optimal or
    heuristic reference.

        Attributes:
            input_ (NpInput): Scores a response to one NP environment instance.

                Give the instance either inline (`instance`, optionally with the `reference` that
                generation returned) or as `level` + `seed`, which regenerates it exactly. The answer is
                taken from the response after the last `</think>`: the last `<answer>...</answer>`, else the
                last `Answer:` line, else (lenient parsing only) the last fenced block or the last bracketed
                structure. It is tokenised, never evaluated.
            verifier (NpScoreItemVerifier):
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: NpInput
    verifier: NpScoreItemVerifier
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
        from ..models.np_input import NpInput

        d = dict(src_dict)
        input_ = NpInput.from_dict(d.pop("input"))

        verifier = check_np_score_item_verifier(d.pop("verifier"))

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

        np_score_item = cls(
            input_=input_,
            verifier=verifier,
            id=id,
            label=label,
        )

        return np_score_item
