from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.criterion_kind_type_0 import CriterionKindType0
    from ..models.criterion_kind_type_1 import CriterionKindType1
    from ..models.criterion_kind_type_2 import CriterionKindType2
    from ..models.criterion_kind_type_3 import CriterionKindType3
    from ..models.criterion_kind_type_4 import CriterionKindType4
    from ..models.criterion_kind_type_5 import CriterionKindType5
    from ..models.criterion_kind_type_6 import CriterionKindType6
    from ..models.criterion_kind_type_7 import CriterionKindType7
    from ..models.criterion_kind_type_8 import CriterionKindType8
    from ..models.criterion_kind_type_9 import CriterionKindType9
    from ..models.criterion_kind_type_10 import CriterionKindType10
    from ..models.criterion_kind_type_11 import CriterionKindType11
    from ..models.criterion_kind_type_12 import CriterionKindType12
    from ..models.criterion_kind_type_13 import CriterionKindType13


T = TypeVar("T", bound="Criterion")


@_attrs_define
class Criterion:
    """One thing a response is judged on.

    Attributes:
        kind (CriterionKindType0 | CriterionKindType1 | CriterionKindType10 | CriterionKindType11 | CriterionKindType12
            | CriterionKindType13 | CriterionKindType2 | CriterionKindType3 | CriterionKindType4 | CriterionKindType5 |
            CriterionKindType6 | CriterionKindType7 | CriterionKindType8 | CriterionKindType9): How a criterion is scored: a
            rule computed locally, a registered verifier, or a question to
            the LLM judge. Every kind scores in [0, 1].
        name (str): Unique within the rubric; an identifier (`clarity`, `has_title`) so formulas can name it.
        description (str | Unset): What the criterion asks, in words. Judge criteria send it to the judge (for
            `principle`
            it is the principle itself); without one, the judge is asked the criterion's name.
        pass_threshold (float | Unset): The score at or above which the criterion counts as passed (default 0.5).
        veto (bool | Unset): When true, a score below `pass_threshold` sets the item's score to the rubric's
            `veto_floor`, whatever the other criteria say.
        weight (float | Unset): Weight in the weighted mean (default 1).
    """

    kind: (
        CriterionKindType0
        | CriterionKindType1
        | CriterionKindType10
        | CriterionKindType11
        | CriterionKindType12
        | CriterionKindType13
        | CriterionKindType2
        | CriterionKindType3
        | CriterionKindType4
        | CriterionKindType5
        | CriterionKindType6
        | CriterionKindType7
        | CriterionKindType8
        | CriterionKindType9
    )
    name: str
    description: str | Unset = UNSET
    pass_threshold: float | Unset = UNSET
    veto: bool | Unset = UNSET
    weight: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.criterion_kind_type_0 import CriterionKindType0
        from ..models.criterion_kind_type_1 import CriterionKindType1
        from ..models.criterion_kind_type_2 import CriterionKindType2
        from ..models.criterion_kind_type_3 import CriterionKindType3
        from ..models.criterion_kind_type_4 import CriterionKindType4
        from ..models.criterion_kind_type_5 import CriterionKindType5
        from ..models.criterion_kind_type_6 import CriterionKindType6
        from ..models.criterion_kind_type_7 import CriterionKindType7
        from ..models.criterion_kind_type_8 import CriterionKindType8
        from ..models.criterion_kind_type_9 import CriterionKindType9
        from ..models.criterion_kind_type_10 import CriterionKindType10
        from ..models.criterion_kind_type_11 import CriterionKindType11
        from ..models.criterion_kind_type_12 import CriterionKindType12

        kind: dict[str, Any]
        if (
            isinstance(self.kind, CriterionKindType0)
            or isinstance(self.kind, CriterionKindType1)
            or isinstance(self.kind, CriterionKindType2)
            or isinstance(self.kind, CriterionKindType3)
            or isinstance(self.kind, CriterionKindType4)
            or isinstance(self.kind, CriterionKindType5)
            or isinstance(self.kind, CriterionKindType6)
            or isinstance(self.kind, CriterionKindType7)
            or isinstance(self.kind, CriterionKindType8)
            or isinstance(self.kind, CriterionKindType9)
            or isinstance(self.kind, CriterionKindType10)
            or isinstance(self.kind, CriterionKindType11)
            or isinstance(self.kind, CriterionKindType12)
        ):
            kind = self.kind.to_dict()
        else:
            kind = self.kind.to_dict()

        name = self.name

        description = self.description

        pass_threshold = self.pass_threshold

        veto = self.veto

        weight = self.weight

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "name": name,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if pass_threshold is not UNSET:
            field_dict["pass_threshold"] = pass_threshold
        if veto is not UNSET:
            field_dict["veto"] = veto
        if weight is not UNSET:
            field_dict["weight"] = weight

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.criterion_kind_type_0 import CriterionKindType0
        from ..models.criterion_kind_type_1 import CriterionKindType1
        from ..models.criterion_kind_type_2 import CriterionKindType2
        from ..models.criterion_kind_type_3 import CriterionKindType3
        from ..models.criterion_kind_type_4 import CriterionKindType4
        from ..models.criterion_kind_type_5 import CriterionKindType5
        from ..models.criterion_kind_type_6 import CriterionKindType6
        from ..models.criterion_kind_type_7 import CriterionKindType7
        from ..models.criterion_kind_type_8 import CriterionKindType8
        from ..models.criterion_kind_type_9 import CriterionKindType9
        from ..models.criterion_kind_type_10 import CriterionKindType10
        from ..models.criterion_kind_type_11 import CriterionKindType11
        from ..models.criterion_kind_type_12 import CriterionKindType12
        from ..models.criterion_kind_type_13 import CriterionKindType13

        d = dict(src_dict)

        def _parse_kind(
            data: object,
        ) -> (
            CriterionKindType0
            | CriterionKindType1
            | CriterionKindType10
            | CriterionKindType11
            | CriterionKindType12
            | CriterionKindType13
            | CriterionKindType2
            | CriterionKindType3
            | CriterionKindType4
            | CriterionKindType5
            | CriterionKindType6
            | CriterionKindType7
            | CriterionKindType8
            | CriterionKindType9
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_0 = CriterionKindType0.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_1 = CriterionKindType1.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_2 = CriterionKindType2.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_3 = CriterionKindType3.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_4 = CriterionKindType4.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_5 = CriterionKindType5.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_6 = CriterionKindType6.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_7 = CriterionKindType7.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_8 = CriterionKindType8.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_8
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_9 = CriterionKindType9.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_9
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_10 = (
                    CriterionKindType10.from_dict(data)
                )

                return componentsschemas_criterion_kind_type_10
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_11 = (
                    CriterionKindType11.from_dict(data)
                )

                return componentsschemas_criterion_kind_type_11
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_12 = (
                    CriterionKindType12.from_dict(data)
                )

                return componentsschemas_criterion_kind_type_12
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_criterion_kind_type_13 = CriterionKindType13.from_dict(
                data
            )

            return componentsschemas_criterion_kind_type_13

        kind = _parse_kind(d.pop("kind"))

        name = d.pop("name")

        description = d.pop("description", UNSET)

        pass_threshold = d.pop("pass_threshold", UNSET)

        veto = d.pop("veto", UNSET)

        weight = d.pop("weight", UNSET)

        criterion = cls(
            kind=kind,
            name=name,
            description=description,
            pass_threshold=pass_threshold,
            veto=veto,
            weight=weight,
        )

        return criterion
