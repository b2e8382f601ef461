from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.exact_match_score_item import ExactMatchScoreItem
    from ..models.math_score_item import MathScoreItem
    from ..models.multiple_choice_score_item import MultipleChoiceScoreItem
    from ..models.np_score_item import NpScoreItem
    from ..models.regex_match_score_item import RegexMatchScoreItem


T = TypeVar("T", bound="ScoreRequest")


@_attrs_define
class ScoreRequest:
    """A batch of items to score. Items may mix verifiers; each verifier receives its items as one
    batch. A malformed item, or one naming an unknown verifier, gets its own `invalid_input`
    result: it never fails the batch.

        Attributes:
            items (list[Any | ExactMatchScoreItem | MathScoreItem | MultipleChoiceScoreItem | NpScoreItem |
                RegexMatchScoreItem]): The items, answered in the same order.
            timeout_ms (int | None | Unset): This request's time budget in milliseconds (1 ms to 1 hour), capped by the
                server's own.
                Items not judged in time get `timeout`.
    """

    items: list[
        Any
        | ExactMatchScoreItem
        | MathScoreItem
        | MultipleChoiceScoreItem
        | NpScoreItem
        | RegexMatchScoreItem
    ]
    timeout_ms: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.exact_match_score_item import ExactMatchScoreItem
        from ..models.math_score_item import MathScoreItem
        from ..models.multiple_choice_score_item import MultipleChoiceScoreItem
        from ..models.np_score_item import NpScoreItem
        from ..models.regex_match_score_item import RegexMatchScoreItem

        items = []
        for items_item_data in self.items:
            items_item: Any | dict[str, Any]
            if (
                isinstance(items_item_data, ExactMatchScoreItem)
                or isinstance(items_item_data, RegexMatchScoreItem)
                or isinstance(items_item_data, MultipleChoiceScoreItem)
                or isinstance(items_item_data, MathScoreItem)
                or isinstance(items_item_data, NpScoreItem)
            ):
                items_item = items_item_data.to_dict()
            else:
                items_item = items_item_data
            items.append(items_item)

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
        if timeout_ms is not UNSET:
            field_dict["timeout_ms"] = timeout_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.exact_match_score_item import ExactMatchScoreItem
        from ..models.math_score_item import MathScoreItem
        from ..models.multiple_choice_score_item import MultipleChoiceScoreItem
        from ..models.np_score_item import NpScoreItem
        from ..models.regex_match_score_item import RegexMatchScoreItem

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:

            def _parse_items_item(
                data: object,
            ) -> (
                Any
                | ExactMatchScoreItem
                | MathScoreItem
                | MultipleChoiceScoreItem
                | NpScoreItem
                | RegexMatchScoreItem
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
                return cast(
                    Any
                    | ExactMatchScoreItem
                    | MathScoreItem
                    | MultipleChoiceScoreItem
                    | NpScoreItem
                    | RegexMatchScoreItem,
                    data,
                )

            items_item = _parse_items_item(items_item_data)

            items.append(items_item)

        def _parse_timeout_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        timeout_ms = _parse_timeout_ms(d.pop("timeout_ms", UNSET))

        score_request = cls(
            items=items,
            timeout_ms=timeout_ms,
        )

        return score_request
