from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.checker_kind import CheckerKind, check_checker_kind
from ..types import UNSET, Unset

T = TypeVar("T", bound="SuiteOptions")


@_attrs_define
class SuiteOptions:
    """Limits per run, the output checker and the suite's size cap.

    Attributes:
        checker (CheckerKind | Unset): How outputs are compared.
        float_abs_tol (float | Unset): Absolute tolerance of the `float` checker (default 1e-6). Default: 1e-06.
        float_rel_tol (float | Unset): Relative tolerance of the `float` checker (default 1e-6). Default: 1e-06.
        fuel (int | Unset): Fuel per run (default 2·10^10, about two seconds of interpreter CPU). Default: 20000000000.
        max_tests (int | Unset): The most tests a suite may hold (default 100, at most 1000); a larger suite scores 0 as
            `unparseable`. Default: 100.
        memory_mb (int | Unset): Memory cap per run, in MiB (default 256). Default: 256.
        output_limit_bytes (int | Unset): Cap on standard output per run, in bytes (default 32 MiB). Default: 33554432.
        time_limit_ms (int | Unset): Wall-clock backstop per run, in milliseconds (default 10000). Default: 10000.
    """

    checker: CheckerKind | Unset = UNSET
    float_abs_tol: float | Unset = 1e-06
    float_rel_tol: float | Unset = 1e-06
    fuel: int | Unset = 20000000000
    max_tests: int | Unset = 100
    memory_mb: int | Unset = 256
    output_limit_bytes: int | Unset = 33554432
    time_limit_ms: int | Unset = 10000

    def to_dict(self) -> dict[str, Any]:
        checker: str | Unset = UNSET
        if not isinstance(self.checker, Unset):
            checker = self.checker

        float_abs_tol = self.float_abs_tol

        float_rel_tol = self.float_rel_tol

        fuel = self.fuel

        max_tests = self.max_tests

        memory_mb = self.memory_mb

        output_limit_bytes = self.output_limit_bytes

        time_limit_ms = self.time_limit_ms

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if checker is not UNSET:
            field_dict["checker"] = checker
        if float_abs_tol is not UNSET:
            field_dict["float_abs_tol"] = float_abs_tol
        if float_rel_tol is not UNSET:
            field_dict["float_rel_tol"] = float_rel_tol
        if fuel is not UNSET:
            field_dict["fuel"] = fuel
        if max_tests is not UNSET:
            field_dict["max_tests"] = max_tests
        if memory_mb is not UNSET:
            field_dict["memory_mb"] = memory_mb
        if output_limit_bytes is not UNSET:
            field_dict["output_limit_bytes"] = output_limit_bytes
        if time_limit_ms is not UNSET:
            field_dict["time_limit_ms"] = time_limit_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _checker = d.pop("checker", UNSET)
        checker: CheckerKind | Unset
        if isinstance(_checker, Unset):
            checker = UNSET
        else:
            checker = check_checker_kind(_checker)

        float_abs_tol = d.pop("float_abs_tol", UNSET)

        float_rel_tol = d.pop("float_rel_tol", UNSET)

        fuel = d.pop("fuel", UNSET)

        max_tests = d.pop("max_tests", UNSET)

        memory_mb = d.pop("memory_mb", UNSET)

        output_limit_bytes = d.pop("output_limit_bytes", UNSET)

        time_limit_ms = d.pop("time_limit_ms", UNSET)

        suite_options = cls(
            checker=checker,
            float_abs_tol=float_abs_tol,
            float_rel_tol=float_rel_tol,
            fuel=fuel,
            max_tests=max_tests,
            memory_mb=memory_mb,
            output_limit_bytes=output_limit_bytes,
            time_limit_ms=time_limit_ms,
        )

        return suite_options
