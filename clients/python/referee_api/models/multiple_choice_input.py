from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MultipleChoiceInput")


@_attrs_define
class MultipleChoiceInput:
    """Extracts the option letter(s) a free-text response chooses ("The answer is (B)",
    `\\boxed{B}`, "**B**", `<answer>B</answer>`) and compares them with the reference. A response
    that names more options than the reference has (hedging, "A or B") is incorrect.

        Attributes:
            reference (list[str] | str): The correct option letter(s): `"B"`, `"A, C"`, `"(B)"` or `["A", "C"]`.
            response (str): The model's output; its reasoning is ignored (the shared response anatomy), and a response
                whose `<think>` never closed is `unparseable`.
            num_options (int | None | Unset): How many options there are when `options` is not given (default 10: A to J).
            options (list[str] | None | Unset): The option texts in order (A first). Bounds the valid letters, and a
                response whose
                answer is exactly one option's text (ignoring case) chooses that option.
    """

    reference: list[str] | str
    response: str
    num_options: int | None | Unset = UNSET
    options: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reference: list[str] | str
        if isinstance(self.reference, list):
            reference = self.reference

        else:
            reference = self.reference

        response = self.response

        num_options: int | None | Unset
        if isinstance(self.num_options, Unset):
            num_options = UNSET
        else:
            num_options = self.num_options

        options: list[str] | None | Unset
        if isinstance(self.options, Unset):
            options = UNSET
        elif isinstance(self.options, list):
            options = self.options

        else:
            options = self.options

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reference": reference,
                "response": response,
            }
        )
        if num_options is not UNSET:
            field_dict["num_options"] = num_options
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_reference(data: object) -> list[str] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                componentsschemas_choice_reference_type_1 = cast(list[str], data)

                return componentsschemas_choice_reference_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | str, data)

        reference = _parse_reference(d.pop("reference"))

        response = d.pop("response")

        def _parse_num_options(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        num_options = _parse_num_options(d.pop("num_options", UNSET))

        def _parse_options(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                options_type_0 = cast(list[str], data)

                return options_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        options = _parse_options(d.pop("options", UNSET))

        multiple_choice_input = cls(
            reference=reference,
            response=response,
            num_options=num_options,
            options=options,
        )

        return multiple_choice_input
