from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.criterion_kind_verifier_type import (
    CriterionKindVerifierType,
    check_criterion_kind_verifier_type,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.criterion_kind_verifier_input import CriterionKindVerifierInput


T = TypeVar("T", bound="CriterionKindVerifier")


@_attrs_define
class CriterionKindVerifier:
    """The score of a registered verifier (`math`, `exact-match`, ...), called with
    `{"response": <the response>, "reference": <the item's reference>}` overlaid with `input`.
    A verifier that cannot judge the item fails the item.

        Attributes:
            type_ (CriterionKindVerifierType):
            verifier (str): A verifier id from `GET /v1/verifiers` (not `rubric`).
            input_ (CriterionKindVerifierInput | Unset): Fields of the verifier's input besides the response.
    """

    type_: CriterionKindVerifierType
    verifier: str
    input_: CriterionKindVerifierInput | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_: str = self.type_

        verifier = self.verifier

        input_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.input_, Unset):
            input_ = self.input_.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "verifier": verifier,
            }
        )
        if input_ is not UNSET:
            field_dict["input"] = input_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.criterion_kind_verifier_input import CriterionKindVerifierInput

        d = dict(src_dict)
        type_ = check_criterion_kind_verifier_type(d.pop("type"))

        verifier = d.pop("verifier")

        _input_ = d.pop("input", UNSET)
        input_: CriterionKindVerifierInput | Unset
        if isinstance(_input_, Unset):
            input_ = UNSET
        else:
            input_ = CriterionKindVerifierInput.from_dict(_input_)

        criterion_kind_verifier = cls(
            type_=type_,
            verifier=verifier,
            input_=input_,
        )

        criterion_kind_verifier.additional_properties = d
        return criterion_kind_verifier

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
