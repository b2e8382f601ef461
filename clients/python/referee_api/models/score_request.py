from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.correction import Correction, check_correction
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.code_score_item import CodeScoreItem
    from ..models.code_tests_score_item import CodeTestsScoreItem
    from ..models.composite_score_item import CompositeScoreItem
    from ..models.exact_match_score_item import ExactMatchScoreItem
    from ..models.grounding_score_item import GroundingScoreItem
    from ..models.math_score_item import MathScoreItem
    from ..models.multiple_choice_score_item import MultipleChoiceScoreItem
    from ..models.np_score_item import NpScoreItem
    from ..models.process_score_item import ProcessScoreItem
    from ..models.regex_match_score_item import RegexMatchScoreItem
    from ..models.rlpr_score_item import RlprScoreItem
    from ..models.rubric_score_item import RubricScoreItem
    from ..models.verilog_score_item import VerilogScoreItem


T = TypeVar("T", bound="ScoreRequest")


@_attrs_define
class ScoreRequest:
    """A batch of items to score. Items may mix verifiers; each verifier receives its items as one
    batch. A malformed item, or one naming an unknown verifier, gets its own `invalid_input`
    result: it never fails the batch.

        Attributes:
            items (list[CodeScoreItem | CodeTestsScoreItem | CompositeScoreItem | ExactMatchScoreItem | GroundingScoreItem |
                MathScoreItem | MultipleChoiceScoreItem | NpScoreItem | ProcessScoreItem | RegexMatchScoreItem | RlprScoreItem |
                RubricScoreItem | VerilogScoreItem]): The items, answered in the same order. An item that does not match its
                schema (an unknown verifier, a missing or misspelled field) is answered with its own `invalid_input` result, in
                its place; it never fails the request.
            correction (Correction | Unset): Whether a scored item's `score` is replaced by its corrected reward.
            run (None | str | Unset): The run of every item that names none (1 to 256 bytes).
            step (int | None | Unset): The step of every item of a run (its own or the request's) that names none.
            timeout_ms (int | None | Unset): This request's time budget in milliseconds (1 ms to 1 hour), capped by the
                server's own.
                Items not judged in time get `timeout`.
    """

    items: list[
        CodeScoreItem
        | CodeTestsScoreItem
        | CompositeScoreItem
        | ExactMatchScoreItem
        | GroundingScoreItem
        | MathScoreItem
        | MultipleChoiceScoreItem
        | NpScoreItem
        | ProcessScoreItem
        | RegexMatchScoreItem
        | RlprScoreItem
        | RubricScoreItem
        | VerilogScoreItem
    ]
    correction: Correction | Unset = UNSET
    run: None | str | Unset = UNSET
    step: int | None | Unset = UNSET
    timeout_ms: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.code_score_item import CodeScoreItem
        from ..models.code_tests_score_item import CodeTestsScoreItem
        from ..models.composite_score_item import CompositeScoreItem
        from ..models.exact_match_score_item import ExactMatchScoreItem
        from ..models.grounding_score_item import GroundingScoreItem
        from ..models.math_score_item import MathScoreItem
        from ..models.multiple_choice_score_item import MultipleChoiceScoreItem
        from ..models.np_score_item import NpScoreItem
        from ..models.regex_match_score_item import RegexMatchScoreItem
        from ..models.rlpr_score_item import RlprScoreItem
        from ..models.rubric_score_item import RubricScoreItem
        from ..models.verilog_score_item import VerilogScoreItem

        items = []
        for items_item_data in self.items:
            items_item: dict[str, Any]
            if (
                isinstance(items_item_data, ExactMatchScoreItem)
                or isinstance(items_item_data, RegexMatchScoreItem)
                or isinstance(items_item_data, MultipleChoiceScoreItem)
                or isinstance(items_item_data, MathScoreItem)
                or isinstance(items_item_data, NpScoreItem)
                or isinstance(items_item_data, RlprScoreItem)
                or isinstance(items_item_data, CodeScoreItem)
                or isinstance(items_item_data, CodeTestsScoreItem)
                or isinstance(items_item_data, VerilogScoreItem)
                or isinstance(items_item_data, RubricScoreItem)
                or isinstance(items_item_data, CompositeScoreItem)
                or isinstance(items_item_data, GroundingScoreItem)
            ):
                items_item = items_item_data.to_dict()
            else:
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
        from ..models.code_score_item import CodeScoreItem
        from ..models.code_tests_score_item import CodeTestsScoreItem
        from ..models.composite_score_item import CompositeScoreItem
        from ..models.exact_match_score_item import ExactMatchScoreItem
        from ..models.grounding_score_item import GroundingScoreItem
        from ..models.math_score_item import MathScoreItem
        from ..models.multiple_choice_score_item import MultipleChoiceScoreItem
        from ..models.np_score_item import NpScoreItem
        from ..models.process_score_item import ProcessScoreItem
        from ..models.regex_match_score_item import RegexMatchScoreItem
        from ..models.rlpr_score_item import RlprScoreItem
        from ..models.rubric_score_item import RubricScoreItem
        from ..models.verilog_score_item import VerilogScoreItem

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:

            def _parse_items_item(
                data: object,
            ) -> (
                CodeScoreItem
                | CodeTestsScoreItem
                | CompositeScoreItem
                | ExactMatchScoreItem
                | GroundingScoreItem
                | MathScoreItem
                | MultipleChoiceScoreItem
                | NpScoreItem
                | ProcessScoreItem
                | RegexMatchScoreItem
                | RlprScoreItem
                | RubricScoreItem
                | VerilogScoreItem
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_0 = ExactMatchScoreItem.from_dict(
                        data
                    )

                    return componentsschemas_score_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_1 = RegexMatchScoreItem.from_dict(
                        data
                    )

                    return componentsschemas_score_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_2 = (
                        MultipleChoiceScoreItem.from_dict(data)
                    )

                    return componentsschemas_score_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_3 = MathScoreItem.from_dict(data)

                    return componentsschemas_score_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_4 = NpScoreItem.from_dict(data)

                    return componentsschemas_score_item_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_5 = RlprScoreItem.from_dict(data)

                    return componentsschemas_score_item_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_6 = CodeScoreItem.from_dict(data)

                    return componentsschemas_score_item_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_7 = CodeTestsScoreItem.from_dict(
                        data
                    )

                    return componentsschemas_score_item_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_8 = VerilogScoreItem.from_dict(
                        data
                    )

                    return componentsschemas_score_item_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_9 = RubricScoreItem.from_dict(
                        data
                    )

                    return componentsschemas_score_item_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_10 = CompositeScoreItem.from_dict(
                        data
                    )

                    return componentsschemas_score_item_type_10
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_score_item_type_11 = GroundingScoreItem.from_dict(
                        data
                    )

                    return componentsschemas_score_item_type_11
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_score_item_type_12 = ProcessScoreItem.from_dict(data)

                return componentsschemas_score_item_type_12

            items_item = _parse_items_item(items_item_data)

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

        score_request = cls(
            items=items,
            correction=correction,
            run=run,
            step=step,
            timeout_ms=timeout_ms,
        )

        return score_request
