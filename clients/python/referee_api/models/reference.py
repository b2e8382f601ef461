from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.reference_kind import ReferenceKind, check_reference_kind
from ..types import UNSET, Unset

T = TypeVar("T", bound="Reference")


@_attrs_define
class Reference:
    """The reference solution of an instance, computed once at generation.

    Attributes:
        answer (str): The reference solution written in the task's answer format.
        baseline_objective (int): The objective of the task's cheap baseline solution (q_b in the quality reward).
        kind (ReferenceKind): How trustworthy a reference objective is.
        objective (int): The reference objective value.
        solution (Any): The reference solution in canonical form (any JSON value: a tour, a set, an assignment).
        bound (int | None | Unset): A proven bound on the optimum from the other side, when one is known: a lower bound
            for
            minimisation, an upper bound for maximisation.
    """

    answer: str
    baseline_objective: int
    kind: ReferenceKind
    objective: int
    solution: Any
    bound: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        answer = self.answer

        baseline_objective = self.baseline_objective

        kind: str = self.kind

        objective = self.objective

        solution = self.solution

        bound: int | None | Unset
        if isinstance(self.bound, Unset):
            bound = UNSET
        else:
            bound = self.bound

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "answer": answer,
                "baseline_objective": baseline_objective,
                "kind": kind,
                "objective": objective,
                "solution": solution,
            }
        )
        if bound is not UNSET:
            field_dict["bound"] = bound

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        answer = d.pop("answer")

        baseline_objective = d.pop("baseline_objective")

        kind = check_reference_kind(d.pop("kind"))

        objective = d.pop("objective")

        solution = d.pop("solution")

        def _parse_bound(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        bound = _parse_bound(d.pop("bound", UNSET))

        reference = cls(
            answer=answer,
            baseline_objective=baseline_objective,
            kind=kind,
            objective=objective,
            solution=solution,
            bound=bound,
        )

        reference.additional_properties = d
        return reference

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
