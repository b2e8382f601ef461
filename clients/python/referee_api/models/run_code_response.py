from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.command_run_result import CommandRunResult
    from ..models.run_code_response_files import RunCodeResponseFiles


T = TypeVar("T", bound="RunCodeResponse")


@_attrs_define
class RunCodeResponse:
    """SandboxFusion's `RunCodeResponse`.

    Attributes:
        files (RunCodeResponseFiles): Always empty: programs run without a filesystem.
        message (str): Why, for `SandboxError`; empty otherwise.
        status (str): `Success` (every command exited with 0), `Failed` (a non-zero exit or a time limit) or
            `SandboxError` (the run could not be made: the sandbox failed, or the language or a
            feature is not supported here).
        compile_result (CommandRunResult | None | Unset):
        executor_pod_name (None | str | Unset):
        run_result (CommandRunResult | None | Unset):
    """

    files: RunCodeResponseFiles
    message: str
    status: str
    compile_result: CommandRunResult | None | Unset = UNSET
    executor_pod_name: None | str | Unset = UNSET
    run_result: CommandRunResult | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.command_run_result import CommandRunResult

        files = self.files.to_dict()

        message = self.message

        status = self.status

        compile_result: dict[str, Any] | None | Unset
        if isinstance(self.compile_result, Unset):
            compile_result = UNSET
        elif isinstance(self.compile_result, CommandRunResult):
            compile_result = self.compile_result.to_dict()
        else:
            compile_result = self.compile_result

        executor_pod_name: None | str | Unset
        if isinstance(self.executor_pod_name, Unset):
            executor_pod_name = UNSET
        else:
            executor_pod_name = self.executor_pod_name

        run_result: dict[str, Any] | None | Unset
        if isinstance(self.run_result, Unset):
            run_result = UNSET
        elif isinstance(self.run_result, CommandRunResult):
            run_result = self.run_result.to_dict()
        else:
            run_result = self.run_result

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "files": files,
                "message": message,
                "status": status,
            }
        )
        if compile_result is not UNSET:
            field_dict["compile_result"] = compile_result
        if executor_pod_name is not UNSET:
            field_dict["executor_pod_name"] = executor_pod_name
        if run_result is not UNSET:
            field_dict["run_result"] = run_result

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.command_run_result import CommandRunResult
        from ..models.run_code_response_files import RunCodeResponseFiles

        d = dict(src_dict)
        files = RunCodeResponseFiles.from_dict(d.pop("files"))

        message = d.pop("message")

        status = d.pop("status")

        def _parse_compile_result(data: object) -> CommandRunResult | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                compile_result_type_0 = CommandRunResult.from_dict(data)

                return compile_result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CommandRunResult | None | Unset, data)

        compile_result = _parse_compile_result(d.pop("compile_result", UNSET))

        def _parse_executor_pod_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        executor_pod_name = _parse_executor_pod_name(d.pop("executor_pod_name", UNSET))

        def _parse_run_result(data: object) -> CommandRunResult | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                run_result_type_0 = CommandRunResult.from_dict(data)

                return run_result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CommandRunResult | None | Unset, data)

        run_result = _parse_run_result(d.pop("run_result", UNSET))

        run_code_response = cls(
            files=files,
            message=message,
            status=status,
            compile_result=compile_result,
            executor_pod_name=executor_pod_name,
            run_result=run_result,
        )

        run_code_response.additional_properties = d
        return run_code_response

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
