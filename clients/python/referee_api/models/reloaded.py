from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Reloaded")


@_attrs_define
class Reloaded:
    """What a successful reload swapped in.

    Attributes:
        generation (int): How many checkpoints this source has loaded, the first one included: it changes with
            every reload, so cached baseline scores of older checkpoints are not reused.
        model_dir (str): The checkpoint directory now in use.
        source (str): The source's name (`local`).
    """

    generation: int
    model_dir: str
    source: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        generation = self.generation

        model_dir = self.model_dir

        source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "generation": generation,
                "model_dir": model_dir,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        generation = d.pop("generation")

        model_dir = d.pop("model_dir")

        source = d.pop("source")

        reloaded = cls(
            generation=generation,
            model_dir=model_dir,
            source=source,
        )

        reloaded.additional_properties = d
        return reloaded

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
