from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_choices_type import (
    CriterionKindChoicesType,
    check_criterion_kind_choices_type,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CriterionKindChoices")


@_attrs_define
class CriterionKindChoices:
    """The judge picks one of ordered tiers, worst to best; tier i of k scores `scores[i]`, or
    i/(k-1) without `scores`.

        Attributes:
            choices (list[str]): 2 to 32 distinct tiers, worst first.
            type_ (CriterionKindChoicesType):
            scores (list[float] | None | Unset): Each tier's score (Rubicon's scored tiers): one per tier, in [0, 1], never
                lower than
                the tier before. Evenly spaced when absent.
    """

    choices: list[str]
    type_: CriterionKindChoicesType
    scores: list[float] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        choices = self.choices

        type_: str = self.type_

        scores: list[float] | None | Unset
        if isinstance(self.scores, Unset):
            scores = UNSET
        elif isinstance(self.scores, list):
            scores = self.scores

        else:
            scores = self.scores

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "choices": choices,
                "type": type_,
            }
        )
        if scores is not UNSET:
            field_dict["scores"] = scores

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        choices = cast(list[str], d.pop("choices"))

        type_ = check_criterion_kind_choices_type(d.pop("type"))

        def _parse_scores(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                scores_type_0 = cast(list[float], data)

                return scores_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        scores = _parse_scores(d.pop("scores", UNSET))

        criterion_kind_choices = cls(
            choices=choices,
            type_=type_,
            scores=scores,
        )

        criterion_kind_choices.additional_properties = d
        return criterion_kind_choices

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
