from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.criterion_kind_choices import CriterionKindChoices
    from ..models.criterion_kind_format import CriterionKindFormat
    from ..models.criterion_kind_json_schema import CriterionKindJsonSchema
    from ..models.criterion_kind_keywords import CriterionKindKeywords
    from ..models.criterion_kind_label import CriterionKindLabel
    from ..models.criterion_kind_language import CriterionKindLanguage
    from ..models.criterion_kind_length import CriterionKindLength
    from ..models.criterion_kind_principle import CriterionKindPrinciple
    from ..models.criterion_kind_regex import CriterionKindRegex
    from ..models.criterion_kind_score import CriterionKindScore
    from ..models.criterion_kind_section import CriterionKindSection
    from ..models.criterion_kind_similarity import CriterionKindSimilarity
    from ..models.criterion_kind_valid_json import CriterionKindValidJson
    from ..models.criterion_kind_verifier import CriterionKindVerifier


T = TypeVar("T", bound="Criterion")


@_attrs_define
class Criterion:
    """One thing a response is judged on.

    Attributes:
        kind (CriterionKindChoices | CriterionKindFormat | CriterionKindJsonSchema | CriterionKindKeywords |
            CriterionKindLabel | CriterionKindLanguage | CriterionKindLength | CriterionKindPrinciple | CriterionKindRegex |
            CriterionKindScore | CriterionKindSection | CriterionKindSimilarity | CriterionKindValidJson |
            CriterionKindVerifier): How a criterion is scored: a rule computed locally, a registered verifier, or a question
            to
            the LLM judge. Every kind scores in [0, 1], except a `principle` with `score: logit`.
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
        CriterionKindChoices
        | CriterionKindFormat
        | CriterionKindJsonSchema
        | CriterionKindKeywords
        | CriterionKindLabel
        | CriterionKindLanguage
        | CriterionKindLength
        | CriterionKindPrinciple
        | CriterionKindRegex
        | CriterionKindScore
        | CriterionKindSection
        | CriterionKindSimilarity
        | CriterionKindValidJson
        | CriterionKindVerifier
    )
    name: str
    description: str | Unset = UNSET
    pass_threshold: float | Unset = UNSET
    veto: bool | Unset = UNSET
    weight: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.criterion_kind_choices import CriterionKindChoices
        from ..models.criterion_kind_format import CriterionKindFormat
        from ..models.criterion_kind_json_schema import CriterionKindJsonSchema
        from ..models.criterion_kind_keywords import CriterionKindKeywords
        from ..models.criterion_kind_label import CriterionKindLabel
        from ..models.criterion_kind_language import CriterionKindLanguage
        from ..models.criterion_kind_length import CriterionKindLength
        from ..models.criterion_kind_regex import CriterionKindRegex
        from ..models.criterion_kind_score import CriterionKindScore
        from ..models.criterion_kind_section import CriterionKindSection
        from ..models.criterion_kind_similarity import CriterionKindSimilarity
        from ..models.criterion_kind_valid_json import CriterionKindValidJson
        from ..models.criterion_kind_verifier import CriterionKindVerifier

        kind: dict[str, Any]
        if (
            isinstance(self.kind, CriterionKindRegex)
            or isinstance(self.kind, CriterionKindKeywords)
            or isinstance(self.kind, CriterionKindLength)
            or isinstance(self.kind, CriterionKindValidJson)
            or isinstance(self.kind, CriterionKindJsonSchema)
            or isinstance(self.kind, CriterionKindLanguage)
            or isinstance(self.kind, CriterionKindSection)
            or isinstance(self.kind, CriterionKindFormat)
            or isinstance(self.kind, CriterionKindSimilarity)
            or isinstance(self.kind, CriterionKindVerifier)
            or isinstance(self.kind, CriterionKindScore)
            or isinstance(self.kind, CriterionKindLabel)
            or isinstance(self.kind, CriterionKindChoices)
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
        from ..models.criterion_kind_choices import CriterionKindChoices
        from ..models.criterion_kind_format import CriterionKindFormat
        from ..models.criterion_kind_json_schema import CriterionKindJsonSchema
        from ..models.criterion_kind_keywords import CriterionKindKeywords
        from ..models.criterion_kind_label import CriterionKindLabel
        from ..models.criterion_kind_language import CriterionKindLanguage
        from ..models.criterion_kind_length import CriterionKindLength
        from ..models.criterion_kind_principle import CriterionKindPrinciple
        from ..models.criterion_kind_regex import CriterionKindRegex
        from ..models.criterion_kind_score import CriterionKindScore
        from ..models.criterion_kind_section import CriterionKindSection
        from ..models.criterion_kind_similarity import CriterionKindSimilarity
        from ..models.criterion_kind_valid_json import CriterionKindValidJson
        from ..models.criterion_kind_verifier import CriterionKindVerifier

        d = dict(src_dict)

        def _parse_kind(
            data: object,
        ) -> (
            CriterionKindChoices
            | CriterionKindFormat
            | CriterionKindJsonSchema
            | CriterionKindKeywords
            | CriterionKindLabel
            | CriterionKindLanguage
            | CriterionKindLength
            | CriterionKindPrinciple
            | CriterionKindRegex
            | CriterionKindScore
            | CriterionKindSection
            | CriterionKindSimilarity
            | CriterionKindValidJson
            | CriterionKindVerifier
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_0 = CriterionKindRegex.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_1 = (
                    CriterionKindKeywords.from_dict(data)
                )

                return componentsschemas_criterion_kind_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_2 = CriterionKindLength.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_3 = (
                    CriterionKindValidJson.from_dict(data)
                )

                return componentsschemas_criterion_kind_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_4 = (
                    CriterionKindJsonSchema.from_dict(data)
                )

                return componentsschemas_criterion_kind_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_5 = (
                    CriterionKindLanguage.from_dict(data)
                )

                return componentsschemas_criterion_kind_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_6 = (
                    CriterionKindSection.from_dict(data)
                )

                return componentsschemas_criterion_kind_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_7 = CriterionKindFormat.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_8 = (
                    CriterionKindSimilarity.from_dict(data)
                )

                return componentsschemas_criterion_kind_type_8
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_9 = (
                    CriterionKindVerifier.from_dict(data)
                )

                return componentsschemas_criterion_kind_type_9
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_10 = CriterionKindScore.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_10
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_11 = CriterionKindLabel.from_dict(
                    data
                )

                return componentsschemas_criterion_kind_type_11
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_criterion_kind_type_12 = (
                    CriterionKindChoices.from_dict(data)
                )

                return componentsschemas_criterion_kind_type_12
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_criterion_kind_type_13 = CriterionKindPrinciple.from_dict(
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
