from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.language import Language, check_language
from ..models.suite_format import SuiteFormat, check_suite_format
from ..models.suite_reward import SuiteReward, check_suite_reward
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.suite_options import SuiteOptions


T = TypeVar("T", bound="CodeTestsInput")


@_attrs_define
class CodeTestsInput:
    """Rewards a model-written test suite by running it against known-correct and known-wrong
    solutions in the WebAssembly sandbox (test-suite rewards as "Rethinking Verification for LLM
    Code Generation: From Generation to Testing", Ma et al., NeurIPS 2025, measures them).

    The suite is the last fenced code block of `response`, written as `format` says. Every
    (solution × test) pair is one run with the `code` verifier's limits. The suite is *valid*
    when every test is well-formed and every correct solution passes every test; a wrong solution
    is *detected* when it fails at least one test. The reward is 0 for an invalid suite, else the
    detection rate (detected / wrong solutions), or 1 only when every wrong solution is detected
    with `reward: verifier_accuracy`; with no wrong solutions, 1 for a valid suite.

        Example:
            {'correct_solutions': ['def add(a, b):\\n    return a + b\\n'], 'format': 'asserts', 'language': 'python',
                'response': 'Tests:\\n```python\\nassert add(2, 3) == 5\\nassert add(-1, 1) == 0\\n```', 'wrong_solutions':
                ['def add(a, b):\\n    return a - b\\n', 'def add(a, b):\\n    return abs(a) + b\\n']}

        Attributes:
            correct_solutions (list[str]): Known-correct solutions (1 to 16), full programs. With `inputs` and `generator`
                suites
                the first one computes each test's expected output.
            language (Language): The language of a program.
            response (str): The model's response; its last fenced code block is the suite (text before a closing
                `</think>` is ignored).
            format_ (SuiteFormat | Unset): How a suite is written in the response's last fenced block.
            full_matrix (bool | Unset): Run every (solution × test) pair and report the whole matrix, instead of stopping
                each
                solution at its first failing test (which decides the score) and skipping the wrong
                solutions of an invalid suite (default false).
            options (SuiteOptions | Unset): Limits per run, the output checker and the suite's size cap.
            reward (SuiteReward | Unset): What a valid suite earns.
            wrong_solutions (list[str] | Unset): Known-wrong solutions (0 to 64), full programs.
    """

    correct_solutions: list[str]
    language: Language
    response: str
    format_: SuiteFormat | Unset = UNSET
    full_matrix: bool | Unset = UNSET
    options: SuiteOptions | Unset = UNSET
    reward: SuiteReward | Unset = UNSET
    wrong_solutions: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        correct_solutions = self.correct_solutions

        language: str = self.language

        response = self.response

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_

        full_matrix = self.full_matrix

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        reward: str | Unset = UNSET
        if not isinstance(self.reward, Unset):
            reward = self.reward

        wrong_solutions: list[str] | Unset = UNSET
        if not isinstance(self.wrong_solutions, Unset):
            wrong_solutions = self.wrong_solutions

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "correct_solutions": correct_solutions,
                "language": language,
                "response": response,
            }
        )
        if format_ is not UNSET:
            field_dict["format"] = format_
        if full_matrix is not UNSET:
            field_dict["full_matrix"] = full_matrix
        if options is not UNSET:
            field_dict["options"] = options
        if reward is not UNSET:
            field_dict["reward"] = reward
        if wrong_solutions is not UNSET:
            field_dict["wrong_solutions"] = wrong_solutions

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.suite_options import SuiteOptions

        d = dict(src_dict)
        correct_solutions = cast(list[str], d.pop("correct_solutions"))

        language = check_language(d.pop("language"))

        response = d.pop("response")

        _format_ = d.pop("format", UNSET)
        format_: SuiteFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = check_suite_format(_format_)

        full_matrix = d.pop("full_matrix", UNSET)

        _options = d.pop("options", UNSET)
        options: SuiteOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = SuiteOptions.from_dict(_options)

        _reward = d.pop("reward", UNSET)
        reward: SuiteReward | Unset
        if isinstance(_reward, Unset):
            reward = UNSET
        else:
            reward = check_suite_reward(_reward)

        wrong_solutions = cast(list[str], d.pop("wrong_solutions", UNSET))

        code_tests_input = cls(
            correct_solutions=correct_solutions,
            language=language,
            response=response,
            format_=format_,
            full_matrix=full_matrix,
            options=options,
            reward=reward,
            wrong_solutions=wrong_solutions,
        )

        return code_tests_input
