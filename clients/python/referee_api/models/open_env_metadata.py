from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="OpenEnvMetadata")


@_attrs_define
class OpenEnvMetadata:
    """OpenEnv's metadata of an environment.

    Attributes:
        description (str):
        name (str):
        version (str):
        author (None | str | Unset):
        documentation_url (None | str | Unset):
        readme_content (None | str | Unset):
    """

    description: str
    name: str
    version: str
    author: None | str | Unset = UNSET
    documentation_url: None | str | Unset = UNSET
    readme_content: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        name = self.name

        version = self.version

        author: None | str | Unset
        if isinstance(self.author, Unset):
            author = UNSET
        else:
            author = self.author

        documentation_url: None | str | Unset
        if isinstance(self.documentation_url, Unset):
            documentation_url = UNSET
        else:
            documentation_url = self.documentation_url

        readme_content: None | str | Unset
        if isinstance(self.readme_content, Unset):
            readme_content = UNSET
        else:
            readme_content = self.readme_content

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "description": description,
                "name": name,
                "version": version,
            }
        )
        if author is not UNSET:
            field_dict["author"] = author
        if documentation_url is not UNSET:
            field_dict["documentation_url"] = documentation_url
        if readme_content is not UNSET:
            field_dict["readme_content"] = readme_content

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        description = d.pop("description")

        name = d.pop("name")

        version = d.pop("version")

        def _parse_author(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        author = _parse_author(d.pop("author", UNSET))

        def _parse_documentation_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        documentation_url = _parse_documentation_url(d.pop("documentation_url", UNSET))

        def _parse_readme_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        readme_content = _parse_readme_content(d.pop("readme_content", UNSET))

        open_env_metadata = cls(
            description=description,
            name=name,
            version=version,
            author=author,
            documentation_url=documentation_url,
            readme_content=readme_content,
        )

        open_env_metadata.additional_properties = d
        return open_env_metadata

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
