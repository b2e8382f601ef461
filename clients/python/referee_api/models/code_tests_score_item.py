from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.code_tests_score_item_verifier import (
    CodeTestsScoreItemVerifier,
    check_code_tests_score_item_verifier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.code_tests_input import CodeTestsInput


T = TypeVar("T", bound="CodeTestsScoreItem")


@_attrs_define
class CodeTestsScoreItem:
    """An item for `code-tests`. Rewards a model-written test suite (stdin/stdout tests, inputs whose outputs a reference
    computes, an input generator, or Python asserts) by running it against known-correct and known-wrong solutions in
    the WebAssembly sandbox: 0 unless every correct solution passes, else the fraction of wrong solutions detected (or 1
    only when all are); details give the (solution × test) matrix.

        Attributes:
            input_ (CodeTestsInput): Rewards a model-written test suite by running it against known-correct and known-wrong
                solutions in the WebAssembly sandbox (test-suite rewards as "Rethinking Verification for LLM
                Code Generation: From Generation to Testing", Ma et al., NeurIPS 2025, measures them).

                The suite is the last fenced code block of `response`, written as `format` says. Every
                (solution × test) pair is one run with the `code` verifier's limits. The suite is *valid*
                when every test is well-formed and every correct solution passes every test; a wrong solution
                is *detected* when it fails at least one test. The reward is 0 for an invalid suite, else the
                detection rate (detected / wrong solutions), or 1 only when every wrong solution is detected
                with `reward: verifier_accuracy`; with no wrong solutions, 1 for a valid suite. Example: {'correct_solutions':
                ['def add(a, b):\\n    return a + b\\n'], 'format': 'asserts', 'language': 'python', 'response':
                'Tests:\\n```python\\nassert add(2, 3) == 5\\nassert add(-1, 1) == 0\\n```', 'wrong_solutions': ['def add(a,
                b):\\n    return a - b\\n', 'def add(a, b):\\n    return abs(a) + b\\n']}.
            verifier (CodeTestsScoreItemVerifier):
            id (None | str | Unset): Echoed in the result, to match results with items.
            label (None | str | Unset): A task or data-source label that selects a noise model.
    """

    input_: CodeTestsInput
    verifier: CodeTestsScoreItemVerifier
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
        from ..models.code_tests_input import CodeTestsInput

        d = dict(src_dict)
        input_ = CodeTestsInput.from_dict(d.pop("input"))

        verifier = check_code_tests_score_item_verifier(d.pop("verifier"))

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

        code_tests_score_item = cls(
            input_=input_,
            verifier=verifier,
            id=id,
            label=label,
        )

        return code_tests_score_item
