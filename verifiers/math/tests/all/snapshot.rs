//! What the snapshot files hold besides a verdict's line (`Verdict::snapshot_line`, from
//! referee-core's `fixtures` feature).

/// The status a row's label asks for.
pub fn expected(credited: bool) -> &'static str {
    if credited { "correct" } else { "incorrect" }
}
