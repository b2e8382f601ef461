from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.correction import Correction, check_correction
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.verifier_score_item import VerifierScoreItem


T = TypeVar("T", bound="VerifierScoreRequest")


@_attrs_define
class VerifierScoreRequest:
    """A batch of items for one verifier.

    Attributes:
        items (list[VerifierScoreItem]): The items, answered in the same order. An item that does not match its schema
            (an unknown verifier, a missing or misspelled field) is answered with its own `invalid_input` result, in its
            place; it never fails the request.
        correction (Correction | Unset): Whether a scored item's `score` is replaced by its corrected reward.
        run (None | str | Unset): The run of every item that names none (1 to 256 bytes).
        step (int | None | Unset): The step of every item of a run (its own or the request's) that names none.
        timeout_ms (int | None | Unset): This request's time budget in milliseconds (1 ms to 1 hour), capped by the
            server's own.
    """

    items: list[VerifierScoreItem]
    correction: Correction | Unset = UNSET
    run: None | str | Unset = UNSET
    step: int | None | Unset = UNSET
    timeout_ms: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        correction: str | Unset = UNSET
        if not isinstance(self.correction, Unset):
            correction = self.correction

        run: None | str | Unset
        if isinstance(self.run, Unset):
            run = UNSET
        else:
            run = self.run

        step: int | None | Unset
        if isinstance(self.step, Unset):
            step = UNSET
        else:
            step = self.step

        timeout_ms: int | None | Unset
        if isinstance(self.timeout_ms, Unset):
            timeout_ms = UNSET
        else:
            timeout_ms = self.timeout_ms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "items": items,
            }
        )
        if correction is not UNSET:
            field_dict["correction"] = correction
        if run is not UNSET:
            field_dict["run"] = run
        if step is not UNSET:
            field_dict["step"] = step
        if timeout_ms is not UNSET:
            field_dict["timeout_ms"] = timeout_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.verifier_score_item import VerifierScoreItem

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = VerifierScoreItem.from_dict(items_item_data)

            items.append(items_item)

        _correction = d.pop("correction", UNSET)
        correction: Correction | Unset
        if isinstance(_correction, Unset):
            correction = UNSET
        else:
            correction = check_correction(_correction)

        def _parse_run(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        run = _parse_run(d.pop("run", UNSET))

        def _parse_step(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        step = _parse_step(d.pop("step", UNSET))

        def _parse_timeout_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        timeout_ms = _parse_timeout_ms(d.pop("timeout_ms", UNSET))

        verifier_score_request = cls(
            items=items,
            correction=correction,
            run=run,
            step=step,
            timeout_ms=timeout_ms,
        )

        return verifier_score_request
