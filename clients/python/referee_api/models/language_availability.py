from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.language_state import LanguageState, check_language_state
from ..types import UNSET, Unset

T = TypeVar("T", bound="LanguageAvailability")


@_attrs_define
class LanguageAvailability:
    """One language of a verifier, as `GET /v1/verifiers` and `/readyz?verbose` report it.

    Attributes:
        language (str): `python`, `c`, `cpp` or `javascript`.
        runtime (str): The runtime or compiler its programs get, with its version.
        status (LanguageState): Whether a language can run.
        fix (None | str | Unset): How to make it available.
        reason (None | str | Unset): Why it is unavailable.
        retry_in_ms (int | None | Unset): Milliseconds until its set-up is tried again (at the next use after that).
    """

    language: str
    runtime: str
    status: LanguageState
    fix: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET
    retry_in_ms: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        language = self.language

        runtime = self.runtime

        status: str = self.status

        fix: None | str | Unset
        if isinstance(self.fix, Unset):
            fix = UNSET
        else:
            fix = self.fix

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        retry_in_ms: int | None | Unset
        if isinstance(self.retry_in_ms, Unset):
            retry_in_ms = UNSET
        else:
            retry_in_ms = self.retry_in_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "language": language,
                "runtime": runtime,
                "status": status,
            }
        )
        if fix is not UNSET:
            field_dict["fix"] = fix
        if reason is not UNSET:
            field_dict["reason"] = reason
        if retry_in_ms is not UNSET:
            field_dict["retry_in_ms"] = retry_in_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        language = d.pop("language")

        runtime = d.pop("runtime")

        status = check_language_state(d.pop("status"))

        def _parse_fix(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        fix = _parse_fix(d.pop("fix", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_retry_in_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        retry_in_ms = _parse_retry_in_ms(d.pop("retry_in_ms", UNSET))

        language_availability = cls(
            language=language,
            runtime=runtime,
            status=status,
            fix=fix,
            reason=reason,
            retry_in_ms=retry_in_ms,
        )

        language_availability.additional_properties = d
        return language_availability

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
