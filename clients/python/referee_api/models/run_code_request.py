from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.run_code_request_files import RunCodeRequestFiles


T = TypeVar("T", bound="RunCodeRequest")


@_attrs_define
class RunCodeRequest:
    """A program to run once, as SandboxFusion's `RunCodeRequest` has it. Unknown fields are ignored.

    Attributes:
        code (str): The program.
        compile_timeout (float | Unset): Seconds; accepted for compatibility (compilation has the server's own limits).
        fetch_files (list[str] | Unset): Files to return after the run; must be empty.
        files (RunCodeRequestFiles | Unset): Files to create before the run (path to base64); only empty or null
            contents are accepted:
            programs run without a filesystem.
        language (str | Unset): `python` or `cpp` (C++17 compiled to `wasm32-wasi`); `python` when absent.
        memory_limit_mb (int | Unset): Memory cap in MiB, 32 to 2048; 1024 when not positive.
        run_timeout (float | Unset): Seconds of CPU the program may use (as deterministic fuel, 10^10 per second), at
            most 60;
            twice this plus a second is the wall-clock backstop. Default 10.
        stdin (None | str | Unset): Standard input.
    """

    code: str
    compile_timeout: float | Unset = UNSET
    fetch_files: list[str] | Unset = UNSET
    files: RunCodeRequestFiles | Unset = UNSET
    language: str | Unset = UNSET
    memory_limit_mb: int | Unset = UNSET
    run_timeout: float | Unset = UNSET
    stdin: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        compile_timeout = self.compile_timeout

        fetch_files: list[str] | Unset = UNSET
        if not isinstance(self.fetch_files, Unset):
            fetch_files = self.fetch_files

        files: dict[str, Any] | Unset = UNSET
        if not isinstance(self.files, Unset):
            files = self.files.to_dict()

        language = self.language

        memory_limit_mb = self.memory_limit_mb

        run_timeout = self.run_timeout

        stdin: None | str | Unset
        if isinstance(self.stdin, Unset):
            stdin = UNSET
        else:
            stdin = self.stdin

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
            }
        )
        if compile_timeout is not UNSET:
            field_dict["compile_timeout"] = compile_timeout
        if fetch_files is not UNSET:
            field_dict["fetch_files"] = fetch_files
        if files is not UNSET:
            field_dict["files"] = files
        if language is not UNSET:
            field_dict["language"] = language
        if memory_limit_mb is not UNSET:
            field_dict["memory_limit_MB"] = memory_limit_mb
        if run_timeout is not UNSET:
            field_dict["run_timeout"] = run_timeout
        if stdin is not UNSET:
            field_dict["stdin"] = stdin

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.run_code_request_files import RunCodeRequestFiles

        d = dict(src_dict)
        code = d.pop("code")

        compile_timeout = d.pop("compile_timeout", UNSET)

        fetch_files = cast(list[str], d.pop("fetch_files", UNSET))

        _files = d.pop("files", UNSET)
        files: RunCodeRequestFiles | Unset
        if isinstance(_files, Unset):
            files = UNSET
        else:
            files = RunCodeRequestFiles.from_dict(_files)

        language = d.pop("language", UNSET)

        memory_limit_mb = d.pop("memory_limit_MB", UNSET)

        run_timeout = d.pop("run_timeout", UNSET)

        def _parse_stdin(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stdin = _parse_stdin(d.pop("stdin", UNSET))

        run_code_request = cls(
            code=code,
            compile_timeout=compile_timeout,
            fetch_files=fetch_files,
            files=files,
            language=language,
            memory_limit_mb=memory_limit_mb,
            run_timeout=run_timeout,
            stdin=stdin,
        )

        run_code_request.additional_properties = d
        return run_code_request

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
