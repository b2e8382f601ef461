//! Caps that keep every pair bounded in time and memory, whatever the input.

/// Longest response or reference accepted, in bytes; longer ones are refused as a resource limit.
pub const MAX_INPUT_BYTES: usize = 256 * 1024;
/// Longest extracted answer handed to the parser, in bytes.
pub const MAX_ANSWER_BYTES: usize = 4096;
/// Most tokens in one answer.
pub const MAX_TOKENS: usize = 2048;
/// Deepest nesting the parser follows.
pub const MAX_DEPTH: usize = 64;
/// Largest exact integer or rational part kept, in bits (`2^65536` fits; `5^(5^5^5)` does not).
pub const MAX_BITS: u64 = 140_000;
/// Largest integer argument of an exact factorial.
pub const MAX_FACTORIAL: u64 = 3000;
/// Most terms a polynomial normal form may hold.
pub const MAX_TERMS: usize = 400;
/// Largest exponent of a variable kept in a normal form (`x^{10^{12}}` is compared by form).
pub const MAX_EXPONENT: u64 = 1 << 40;
/// Largest integer exponent expanded exactly on a sum.
pub const MAX_EXPANDED_POWER: u64 = 32;
/// Most elements in a list, set or matrix compared element by element.
pub const MAX_ELEMENTS: usize = 256;
/// Most elements in a list or set matched without regard to order (matching is quadratic).
pub const MAX_UNORDERED: usize = 64;
/// Most terms a numeric sum or product with integer bounds is evaluated over.
pub const MAX_SERIES_TERMS: i64 = 10_000;
/// Most terms a sum or product with integer bounds is expanded over exactly; longer ones are
/// evaluated numerically (exact harmonic sums grow denominators fast).
pub const MAX_EXACT_SERIES_TERMS: i64 = 100;
/// Most `±` signs expanded into their sign combinations.
pub const MAX_PLUS_MINUS: usize = 4;
