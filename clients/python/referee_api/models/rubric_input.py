from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rubric_definition import RubricDefinition


T = TypeVar("T", bound="RubricInput")


@_attrs_define
class RubricInput:
    """One response to score against a rubric.

    Give the rubric inline (`rubric`) or name a stored one (`rubric_id`, with `rubric_version`
    to pin a version; the latest otherwise). Verdicts are `correct` at score 1, `incorrect` at 0
    or when a veto criterion fails, `partial` between; `internal_error` or `timeout` when the
    judge or a verifier criterion could not judge. Details list every criterion's score and
    whether it passed, the vetoes, and each judge call's reply (truncated) and cache hit.

        Attributes:
            response (str): The response to score.
            prompt (None | str | Unset): The task the response answers; the judge is shown it.
            reference (None | str | Unset): A reference answer: similarity criteria compare with it, verifier criteria
                receive it,
                the judge is shown it.
            rubric (None | RubricDefinition | Unset):
            rubric_id (None | str | Unset): The id of a stored rubric.
            rubric_version (int | None | Unset): The version of the stored rubric; the latest when absent.
    """

    response: str
    prompt: None | str | Unset = UNSET
    reference: None | str | Unset = UNSET
    rubric: None | RubricDefinition | Unset = UNSET
    rubric_id: None | str | Unset = UNSET
    rubric_version: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.rubric_definition import RubricDefinition

        response = self.response

        prompt: None | str | Unset
        if isinstance(self.prompt, Unset):
            prompt = UNSET
        else:
            prompt = self.prompt

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        rubric: dict[str, Any] | None | Unset
        if isinstance(self.rubric, Unset):
            rubric = UNSET
        elif isinstance(self.rubric, RubricDefinition):
            rubric = self.rubric.to_dict()
        else:
            rubric = self.rubric

        rubric_id: None | str | Unset
        if isinstance(self.rubric_id, Unset):
            rubric_id = UNSET
        else:
            rubric_id = self.rubric_id

        rubric_version: int | None | Unset
        if isinstance(self.rubric_version, Unset):
            rubric_version = UNSET
        else:
            rubric_version = self.rubric_version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "response": response,
            }
        )
        if prompt is not UNSET:
            field_dict["prompt"] = prompt
        if reference is not UNSET:
            field_dict["reference"] = reference
        if rubric is not UNSET:
            field_dict["rubric"] = rubric
        if rubric_id is not UNSET:
            field_dict["rubric_id"] = rubric_id
        if rubric_version is not UNSET:
            field_dict["rubric_version"] = rubric_version

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rubric_definition import RubricDefinition

        d = dict(src_dict)
        response = d.pop("response")

        def _parse_prompt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        prompt = _parse_prompt(d.pop("prompt", UNSET))

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        def _parse_rubric(data: object) -> None | RubricDefinition | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rubric_type_0 = RubricDefinition.from_dict(data)

                return rubric_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RubricDefinition | Unset, data)

        rubric = _parse_rubric(d.pop("rubric", UNSET))

        def _parse_rubric_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rubric_id = _parse_rubric_id(d.pop("rubric_id", UNSET))

        def _parse_rubric_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rubric_version = _parse_rubric_version(d.pop("rubric_version", UNSET))

        rubric_input = cls(
            response=response,
            prompt=prompt,
            reference=reference,
            rubric=rubric,
            rubric_id=rubric_id,
            rubric_version=rubric_version,
        )

        return rubric_input
