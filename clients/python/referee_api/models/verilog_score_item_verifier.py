from typing import Literal

VerilogScoreItemVerifier = Literal["verilog"]

VERILOG_SCORE_ITEM_VERIFIER_VALUES: set[VerilogScoreItemVerifier] = {
    "verilog",
}


def check_verilog_score_item_verifier(value: str) -> VerilogScoreItemVerifier:
    if value in VERILOG_SCORE_ITEM_VERIFIER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {VERILOG_SCORE_ITEM_VERIFIER_VALUES!r}"
    )
