from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.noise_model import NoiseModel


T = TypeVar("T", bound="SourceModel")


@_attrs_define
class SourceModel:
    """One source's model, or why it has none.

    Attributes:
        model (NoiseModel | None | Unset):
        unavailable (None | str | Unset): Why there is no model, when there is none.
    """

    model: NoiseModel | None | Unset = UNSET
    unavailable: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.noise_model import NoiseModel

        model: dict[str, Any] | None | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        elif isinstance(self.model, NoiseModel):
            model = self.model.to_dict()
        else:
            model = self.model

        unavailable: None | str | Unset
        if isinstance(self.unavailable, Unset):
            unavailable = UNSET
        else:
            unavailable = self.unavailable

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if model is not UNSET:
            field_dict["model"] = model
        if unavailable is not UNSET:
            field_dict["unavailable"] = unavailable

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.noise_model import NoiseModel

        d = dict(src_dict)

        def _parse_model(data: object) -> NoiseModel | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                model_type_0 = NoiseModel.from_dict(data)

                return model_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NoiseModel | None | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_unavailable(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        unavailable = _parse_unavailable(d.pop("unavailable", UNSET))

        source_model = cls(
            model=model,
            unavailable=unavailable,
        )

        source_model.additional_properties = d
        return source_model

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
