//! What a `verilog` item holds, and the checks beyond its schema.

use referee_core::utoipa::{self, ToSchema};
use serde::Deserialize;

use crate::extract::last_fenced_block;

/// The most cycles an item may ask for.
pub const MAX_CYCLES: u32 = 200;
/// The cycles of an item that names none.
const DEFAULT_CYCLES: u32 = 20;
/// The largest design source accepted, in bytes.
const MAX_SOURCE_BYTES: usize = 1_000_000;

/// A model's Verilog design and the golden reference it must be equivalent to.
///
/// Both are read as SystemVerilog (Yosys's `read_verilog -sv`). The designs' top modules may have
/// different names (`RefModule` and `TopModule`, say) but must have the same ports: names,
/// directions and widths.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerilogInput {
    /// The candidate design's source. Exactly one of `program` and `response`.
    #[serde(default)]
    #[schema(max_length = 1000000)]
    pub program: Option<String>,
    /// A full model response: the last fenced code block is the design (text before a closing
    /// `</think>` is ignored); without a fenced block, the text from the first `module` to the
    /// last `endmodule`.
    #[serde(default)]
    #[schema(max_length = 1000000)]
    pub response: Option<String>,
    /// The golden reference design.
    #[schema(max_length = 1000000)]
    pub reference: String,
    /// The reference's top module; by default the module no other module instantiates.
    #[serde(default)]
    pub top: Option<String>,
    /// The candidate's top module; by default the module no other module instantiates.
    #[serde(default)]
    pub candidate_top: Option<String>,
    /// The reset input, held active during the first cycle (whose outputs are not compared);
    /// `""` for none. By default the reference's input named `reset`, `rst`, `areset`, `arst`,
    /// `reset_n`, `resetn`, `rst_n`, `rstn`, `areset_n`, `aresetn`, `arst_n` or `arstn`, if it has one.
    #[serde(default)]
    pub reset: Option<String>,
    /// Whether the reset is active low; by default true for the names ending in `n` above.
    #[serde(default)]
    pub reset_active_low: Option<bool>,
    /// How many cycles a sequential proof may look at: the longest induction tried and, when
    /// induction does not close, the bound of the proof. 1 to 200; default 20.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 200)]
    pub cycles: Option<u32>,
    /// Whether a pair of designs whose proof runs out of fuel is checked by random-stimulus
    /// simulation instead (verdict `equivalent` with `method: simulation`, or a `counterexample`
    /// found by it): default true; false makes such an item a `timeout`.
    #[serde(default)]
    pub simulate: Option<bool>,
}

/// An item's settings once checked: names are Verilog identifiers, numbers in range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Checked {
    pub top: Option<String>,
    pub candidate_top: Option<String>,
    /// `Some("")`: no reset; `None`: found by name.
    pub reset: Option<String>,
    pub reset_active_low: Option<bool>,
    pub cycles: u32,
    pub simulate: bool,
}

/// The reset names looked for when an item names none, with whether each is active low.
pub(crate) const RESET_NAMES: [(&str, bool); 12] = [
    ("reset", false),
    ("rst", false),
    ("areset", false),
    ("arst", false),
    ("reset_n", true),
    ("resetn", true),
    ("rst_n", true),
    ("rstn", true),
    ("areset_n", true),
    ("aresetn", true),
    ("arst_n", true),
    ("arstn", true),
];

impl VerilogInput {
    /// Checks the item beyond its schema; `Err` is why it is invalid.
    pub(crate) fn check(&self) -> Result<Checked, String> {
        match (&self.program, &self.response) {
            (Some(_), Some(_)) => return Err("give one of `program` and `response`, not both".to_owned()),
            (None, None) => return Err("give the candidate design as `program` or `response`".to_owned()),
            _ => {}
        }
        for (field, text) in [("program", &self.program), ("response", &self.response)] {
            if text.as_ref().is_some_and(|t| t.len() > MAX_SOURCE_BYTES) {
                return Err(format!("`{field}` is longer than {MAX_SOURCE_BYTES} bytes"));
            }
        }
        if self.reference.len() > MAX_SOURCE_BYTES {
            return Err(format!("`reference` is longer than {MAX_SOURCE_BYTES} bytes"));
        }
        if !self.reference.contains("module") {
            return Err("`reference` holds no Verilog module".to_owned());
        }
        for (field, name) in [("top", &self.top), ("candidate_top", &self.candidate_top)] {
            if let Some(name) = name
                && !is_identifier(name)
            {
                return Err(format!("`{field}` must be a Verilog identifier, not {name:?}"));
            }
        }
        if let Some(reset) = &self.reset
            && !reset.is_empty()
            && !is_identifier(reset)
        {
            return Err(format!("`reset` must be a Verilog identifier or \"\", not {reset:?}"));
        }
        let cycles = self.cycles.unwrap_or(DEFAULT_CYCLES);
        if !(1..=MAX_CYCLES).contains(&cycles) {
            return Err(format!("`cycles` must be from 1 to {MAX_CYCLES}, not {cycles}"));
        }
        Ok(Checked {
            top: self.top.clone(),
            candidate_top: self.candidate_top.clone(),
            reset: self.reset.clone(),
            reset_active_low: self.reset_active_low,
            cycles,
            simulate: self.simulate.unwrap_or(true),
        })
    }

    /// The candidate design's source; `Err` says why the response holds none.
    pub(crate) fn candidate(&self) -> Result<String, String> {
        if let Some(program) = &self.program {
            return Ok(program.clone());
        }
        let response = self.response.as_deref().unwrap_or_default();
        match last_fenced_block(response) {
            Ok(block) => Ok(block.to_owned()),
            Err(reason) if reason.contains("reasoning") => Err(reason.to_owned()),
            Err(_) => bare_module(response)
                .map(str::to_owned)
                .ok_or_else(|| "the response has no fenced code block and no `module ... endmodule`".to_owned()),
        }
    }
}

/// `source` as Yosys reads it: `always_comb` as `always @*`. Yosys refuses an `always_comb`
/// in which it infers a latch (a `case` without a `default` over every state, say), where
/// simulators and the SystemVerilog standard only warn; read as `always @*`, such a block is a
/// latch the proof models as one (see docs/verifiers/verilog.md).
pub(crate) fn for_yosys(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut last = 0;
    for at in keyword_positions(source, "always_comb") {
        out.push_str(&source[last..at]);
        out.push_str("always @*");
        last = at + "always_comb".len();
    }
    out.push_str(&source[last..]);
    out
}

/// The text from the first `module` keyword to the end of the last `endmodule`.
fn bare_module(text: &str) -> Option<&str> {
    let start = keyword_positions(text, "module").next()?;
    let end = keyword_positions(text, "endmodule").last()? + "endmodule".len();
    (start < end).then(|| &text[start..end])
}

/// Where `word` occurs in `text` as a whole word.
fn keyword_positions<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word).map(|(at, _)| at).filter(move |&at| {
        let before = text[..at].chars().next_back().is_none_or(|c| !is_word(c));
        let after = text[at + word.len()..].chars().next().is_none_or(|c| !is_word(c));
        before && after
    })
}

/// A simple Verilog identifier: a letter or `_`, then letters, digits, `_` and `$`.
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && name.len() <= 256
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(response: &str) -> VerilogInput {
        VerilogInput {
            program: None,
            response: Some(response.to_owned()),
            reference: "module RefModule(output z); assign z = 0; endmodule".to_owned(),
            top: None,
            candidate_top: None,
            reset: None,
            reset_active_low: None,
            cycles: None,
            simulate: None,
        }
    }

    #[test]
    fn the_design_is_the_last_fenced_block_else_the_bare_modules() {
        let fenced =
            "Here:\n```verilog\nmodule A(); endmodule\n```\nBetter:\n```systemverilog\nmodule B(); endmodule\n```";
        assert_eq!(item(fenced).candidate(), Ok("module B(); endmodule\n".to_owned()));
        let bare = "The answer is\nmodule TopModule(output z);\n  assign z = 1;\nendmodule\nThat is all.";
        assert_eq!(item(bare).candidate(), Ok("module TopModule(output z);\n  assign z = 1;\nendmodule".to_owned()));
        assert!(item("no design here; a submodule would be nice").candidate().is_err());
        assert!(
            item("<think>```verilog\nmodule A(); endmodule\n```").candidate().is_err_and(|e| e.contains("reasoning"))
        );
    }

    #[test]
    fn names_and_numbers_are_checked() {
        assert!(item("x").check().is_ok_and(|c| c.cycles == DEFAULT_CYCLES && c.reset.is_none()));
        let mut bad = item("x");
        bad.top = Some("a; sat -prove".to_owned());
        assert!(bad.check().is_err_and(|e| e.contains("`top`")));
        let mut none = item("x");
        none.reset = Some(String::new());
        assert!(none.check().is_ok_and(|c| c.reset.as_deref() == Some("")));
        let mut long = item("x");
        long.cycles = Some(MAX_CYCLES + 1);
        assert!(long.check().is_err_and(|e| e.contains("`cycles`")));
        let mut both = item("x");
        both.program = Some("module A(); endmodule".to_owned());
        assert!(both.check().is_err());
        assert_eq!(
            for_yosys("always_comb x = y; // always_combs\nalways_comb"),
            "always @* x = y; // always_combs\nalways @*"
        );
        assert!(is_identifier("TopModule") && is_identifier("_q$1") && !is_identifier("1a") && !is_identifier("a b"));
    }
}
