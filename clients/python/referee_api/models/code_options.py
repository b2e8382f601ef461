from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..models.checker_kind import CheckerKind, check_checker_kind
from ..models.scoring import Scoring, check_scoring
from ..types import UNSET, Unset

T = TypeVar("T", bound="CodeOptions")


@_attrs_define
class CodeOptions:
    """Checker, limits and scoring of one item.

    Attributes:
        checker (CheckerKind | Unset): How outputs are compared.
        checker_program (None | str | Unset): The special judge for `checker: program`, a Python program whatever the
            item's language.
        float_abs_tol (float | Unset): Absolute tolerance of the `float` checker (default 1e-6). Default: 1e-06.
        float_rel_tol (float | Unset): Relative tolerance of the `float` checker (default 1e-6). Default: 1e-06.
        fuel (int | Unset): Fuel per test (default 2·10^10, about two seconds of interpreter CPU). Default: 20000000000.
        memory_mb (int | Unset): Memory cap per run, in MiB (default 256). Default: 256.
        output_limit_bytes (int | Unset): Cap on standard output per run, in bytes (default 32 MiB). Default: 33554432.
        scoring (Scoring | Unset): How the item's score follows from its tests.
        stop_on_first_failure (bool | None | Unset): Stop at the first failing test; the rest are reported as `skipped`.
            Defaults to true
            with `all_or_nothing` scoring (one failure decides the score) and false with `fraction`.
        time_limit_ms (int | Unset): Wall-clock backstop per test, in milliseconds (default 10000). Default: 10000.
    """

    checker: CheckerKind | Unset = UNSET
    checker_program: None | str | Unset = UNSET
    float_abs_tol: float | Unset = 1e-06
    float_rel_tol: float | Unset = 1e-06
    fuel: int | Unset = 20000000000
    memory_mb: int | Unset = 256
    output_limit_bytes: int | Unset = 33554432
    scoring: Scoring | Unset = UNSET
    stop_on_first_failure: bool | None | Unset = UNSET
    time_limit_ms: int | Unset = 10000

    def to_dict(self) -> dict[str, Any]:
        checker: str | Unset = UNSET
        if not isinstance(self.checker, Unset):
            checker = self.checker

        checker_program: None | str | Unset
        if isinstance(self.checker_program, Unset):
            checker_program = UNSET
        else:
            checker_program = self.checker_program

        float_abs_tol = self.float_abs_tol

        float_rel_tol = self.float_rel_tol

        fuel = self.fuel

        memory_mb = self.memory_mb

        output_limit_bytes = self.output_limit_bytes

        scoring: str | Unset = UNSET
        if not isinstance(self.scoring, Unset):
            scoring = self.scoring

        stop_on_first_failure: bool | None | Unset
        if isinstance(self.stop_on_first_failure, Unset):
            stop_on_first_failure = UNSET
        else:
            stop_on_first_failure = self.stop_on_first_failure

        time_limit_ms = self.time_limit_ms

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if checker is not UNSET:
            field_dict["checker"] = checker
        if checker_program is not UNSET:
            field_dict["checker_program"] = checker_program
        if float_abs_tol is not UNSET:
            field_dict["float_abs_tol"] = float_abs_tol
        if float_rel_tol is not UNSET:
            field_dict["float_rel_tol"] = float_rel_tol
        if fuel is not UNSET:
            field_dict["fuel"] = fuel
        if memory_mb is not UNSET:
            field_dict["memory_mb"] = memory_mb
        if output_limit_bytes is not UNSET:
            field_dict["output_limit_bytes"] = output_limit_bytes
        if scoring is not UNSET:
            field_dict["scoring"] = scoring
        if stop_on_first_failure is not UNSET:
            field_dict["stop_on_first_failure"] = stop_on_first_failure
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

        def _parse_checker_program(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        checker_program = _parse_checker_program(d.pop("checker_program", UNSET))

        float_abs_tol = d.pop("float_abs_tol", UNSET)

        float_rel_tol = d.pop("float_rel_tol", UNSET)

        fuel = d.pop("fuel", UNSET)

        memory_mb = d.pop("memory_mb", UNSET)

        output_limit_bytes = d.pop("output_limit_bytes", UNSET)

        _scoring = d.pop("scoring", UNSET)
        scoring: Scoring | Unset
        if isinstance(_scoring, Unset):
            scoring = UNSET
        else:
            scoring = check_scoring(_scoring)

        def _parse_stop_on_first_failure(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        stop_on_first_failure = _parse_stop_on_first_failure(
            d.pop("stop_on_first_failure", UNSET)
        )

        time_limit_ms = d.pop("time_limit_ms", UNSET)

        code_options = cls(
            checker=checker,
            checker_program=checker_program,
            float_abs_tol=float_abs_tol,
            float_rel_tol=float_rel_tol,
            fuel=fuel,
            memory_mb=memory_mb,
            output_limit_bytes=output_limit_bytes,
            scoring=scoring,
            stop_on_first_failure=stop_on_first_failure,
            time_limit_ms=time_limit_ms,
        )

        return code_options
