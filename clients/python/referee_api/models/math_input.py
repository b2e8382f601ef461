from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.math_options import MathOptions


T = TypeVar("T", bound="MathInput")


@_attrs_define
class MathInput:
    """One math item: a model response and the reference answer it is judged against.

    The response may be a full solution; the final answer is extracted from `\\boxed{}`,
    `<answer>` tags, "final answer" phrases, bold values, the last formula or the last number.
    The reference may be LaTeX or plain text, with or without `$...$` or `\\boxed{}`.

        Attributes:
            reference (str): The gold answer, LaTeX or plain text (`\\frac{1}{2}`, `1/2`, `$x \\in [0, 1)$`).
            response (str): The full model output.
            options (MathOptions | Unset): Options of one math item; every field has a default.
    """

    reference: str
    response: str
    options: MathOptions | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reference = self.reference

        response = self.response

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reference": reference,
                "response": response,
            }
        )
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.math_options import MathOptions

        d = dict(src_dict)
        reference = d.pop("reference")

        response = d.pop("response")

        _options = d.pop("options", UNSET)
        options: MathOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = MathOptions.from_dict(_options)

        math_input = cls(
            reference=reference,
            response=response,
            options=options,
        )

        return math_input
