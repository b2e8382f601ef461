from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="VerilogInput")


@_attrs_define
class VerilogInput:
    """A model's Verilog design and the golden reference it must be equivalent to.

    Both are read as SystemVerilog (Yosys's `read_verilog -sv`). The designs' top modules may have
    different names (`RefModule` and `TopModule`, say) but must have the same ports: names,
    directions and widths.

        Attributes:
            reference (str): The golden reference design.
            candidate_top (None | str | Unset): The candidate's top module; by default the module no other module
                instantiates.
            cycles (int | None | Unset): How many cycles a sequential proof may look at: the longest induction tried and,
                when
                induction does not close, the bound of the proof. 1 to 200; default 20.
            program (None | str | Unset): The candidate design's source. Exactly one of `program` and `response`.
            reset (None | str | Unset): The reset input, held active during the first cycle (whose outputs are not
                compared);
                `""` for none. By default the reference's input named `reset`, `rst`, `areset`, `arst`,
                `reset_n`, `resetn`, `rst_n`, `rstn`, `areset_n`, `aresetn`, `arst_n` or `arstn`, if it has one.
            reset_active_low (bool | None | Unset): Whether the reset is active low; by default true for the names ending in
                `n` above.
            response (None | str | Unset): A full model response: the last fenced code block is the design (text before a
                closing
                `</think>` is ignored); without a fenced block, the text from the first `module` to the
                last `endmodule`.
            simulate (bool | None | Unset): Whether a pair of designs whose proof runs out of fuel is checked by random-
                stimulus
                simulation instead (verdict `equivalent` with `method: simulation`, or a `counterexample`
                found by it): default true; false makes such an item a `timeout`.
            top (None | str | Unset): The reference's top module; by default the module no other module instantiates.
    """

    reference: str
    candidate_top: None | str | Unset = UNSET
    cycles: int | None | Unset = UNSET
    program: None | str | Unset = UNSET
    reset: None | str | Unset = UNSET
    reset_active_low: bool | None | Unset = UNSET
    response: None | str | Unset = UNSET
    simulate: bool | None | Unset = UNSET
    top: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reference = self.reference

        candidate_top: None | str | Unset
        if isinstance(self.candidate_top, Unset):
            candidate_top = UNSET
        else:
            candidate_top = self.candidate_top

        cycles: int | None | Unset
        if isinstance(self.cycles, Unset):
            cycles = UNSET
        else:
            cycles = self.cycles

        program: None | str | Unset
        if isinstance(self.program, Unset):
            program = UNSET
        else:
            program = self.program

        reset: None | str | Unset
        if isinstance(self.reset, Unset):
            reset = UNSET
        else:
            reset = self.reset

        reset_active_low: bool | None | Unset
        if isinstance(self.reset_active_low, Unset):
            reset_active_low = UNSET
        else:
            reset_active_low = self.reset_active_low

        response: None | str | Unset
        if isinstance(self.response, Unset):
            response = UNSET
        else:
            response = self.response

        simulate: bool | None | Unset
        if isinstance(self.simulate, Unset):
            simulate = UNSET
        else:
            simulate = self.simulate

        top: None | str | Unset
        if isinstance(self.top, Unset):
            top = UNSET
        else:
            top = self.top

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reference": reference,
            }
        )
        if candidate_top is not UNSET:
            field_dict["candidate_top"] = candidate_top
        if cycles is not UNSET:
            field_dict["cycles"] = cycles
        if program is not UNSET:
            field_dict["program"] = program
        if reset is not UNSET:
            field_dict["reset"] = reset
        if reset_active_low is not UNSET:
            field_dict["reset_active_low"] = reset_active_low
        if response is not UNSET:
            field_dict["response"] = response
        if simulate is not UNSET:
            field_dict["simulate"] = simulate
        if top is not UNSET:
            field_dict["top"] = top

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reference = d.pop("reference")

        def _parse_candidate_top(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        candidate_top = _parse_candidate_top(d.pop("candidate_top", UNSET))

        def _parse_cycles(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        cycles = _parse_cycles(d.pop("cycles", UNSET))

        def _parse_program(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        program = _parse_program(d.pop("program", UNSET))

        def _parse_reset(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reset = _parse_reset(d.pop("reset", UNSET))

        def _parse_reset_active_low(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        reset_active_low = _parse_reset_active_low(d.pop("reset_active_low", UNSET))

        def _parse_response(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        response = _parse_response(d.pop("response", UNSET))

        def _parse_simulate(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        simulate = _parse_simulate(d.pop("simulate", UNSET))

        def _parse_top(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        top = _parse_top(d.pop("top", UNSET))

        verilog_input = cls(
            reference=reference,
            candidate_top=candidate_top,
            cycles=cycles,
            program=program,
            reset=reset,
            reset_active_low=reset_active_low,
            response=response,
            simulate=simulate,
            top=top,
        )

        return verilog_input
