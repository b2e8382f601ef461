from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.generated_instance_instance import GeneratedInstanceInstance
    from ..models.reference import Reference


T = TypeVar("T", bound="GeneratedInstance")


@_attrs_define
class GeneratedInstance:
    """One generated instance with its prompt and reference, as returned by
    `POST /v1/environments/{task}/instances`.

        Attributes:
            generator_version (int): The generator version that produced it.
            instance (GeneratedInstanceInstance): The instance as JSON (pass it back as the `np` verifier's `instance`).
            level (int): The level it was generated at.
            prompt (str): The full prompt, including the exact answer format.
            reference (Reference): The reference solution of an instance, computed once at generation.
            seed (int): The seed; (task, level, seed) reproduces this instance exactly.
            task (str): The task id.
    """

    generator_version: int
    instance: GeneratedInstanceInstance
    level: int
    prompt: str
    reference: Reference
    seed: int
    task: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        generator_version = self.generator_version

        instance = self.instance.to_dict()

        level = self.level

        prompt = self.prompt

        reference = self.reference.to_dict()

        seed = self.seed

        task = self.task

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "generator_version": generator_version,
                "instance": instance,
                "level": level,
                "prompt": prompt,
                "reference": reference,
                "seed": seed,
                "task": task,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.generated_instance_instance import GeneratedInstanceInstance
        from ..models.reference import Reference

        d = dict(src_dict)
        generator_version = d.pop("generator_version")

        instance = GeneratedInstanceInstance.from_dict(d.pop("instance"))

        level = d.pop("level")

        prompt = d.pop("prompt")

        reference = Reference.from_dict(d.pop("reference"))

        seed = d.pop("seed")

        task = d.pop("task")

        generated_instance = cls(
            generator_version=generator_version,
            instance=instance,
            level=level,
            prompt=prompt,
            reference=reference,
            seed=seed,
            task=task,
        )

        generated_instance.additional_properties = d
        return generated_instance

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
