//! Repeats arbitrary text into a long response at two sizes four times apart and judges both.
//! The work is counted (`referee_math::work::counted`), not timed: linear work grows about
//! fourfold, so a larger growth means some scan has turned superlinear on this shape. Any
//! panic is a finding too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use referee_core::Budget;
use referee_math::{MathOptions, judge, work};

/// Steps any pair may take whatever its length: comparing two parsed answers is bounded by the
/// crate's caps, not by the response.
const CONSTANT_WORK: u64 = 2_000_000;

fn repeated(unit: &str, bytes: usize) -> String {
    let mut s = unit.repeat(bytes / unit.len() + 1);
    while s.len() > bytes {
        s.pop();
    }
    s
}

fn cost(response: &str) -> u64 {
    work::counted(|| judge(response, "1", &MathOptions::default(), &Budget::unlimited())).1
}

fuzz_target!(|data: &[u8]| {
    let Ok(unit) = std::str::from_utf8(data) else { return };
    if unit.is_empty() || unit.len() > 64 {
        return;
    }
    let small = cost(&repeated(unit, 8_000));
    let large = cost(&repeated(unit, 32_000));
    assert!(large <= 5 * small + CONSTANT_WORK, "{unit:?}: {small} steps at 8 KB, {large} at 32 KB");
});
