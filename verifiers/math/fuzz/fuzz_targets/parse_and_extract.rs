//! Feeds arbitrary text to the parser, the extractor and the whole judgement. A NUL byte
//! splits the input into a reference and a response. Any panic, or a pair that outlives its
//! one-second budget by more than a second, is a finding.
#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use referee_core::Budget;
use referee_math::extract::{Side, extract};
use referee_math::parser::parse;
use referee_math::{ExtractionMode, MathOptions, judge};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (reference, response) = text.split_once('\0').unwrap_or((text, text));
    let _ = parse(reference, false);
    let _ = parse(reference, true);
    let _ = extract(response, ExtractionMode::Auto, true, Side::Response);
    let _ = extract(reference, ExtractionMode::Auto, true, Side::Reference);
    let start = Instant::now();
    let budget = Budget::with_timeout(Duration::from_secs(1));
    let _ = judge(response, reference, &MathOptions::default(), &budget);
    assert!(start.elapsed() < Duration::from_secs(2), "judging took {:?}", start.elapsed());
});
