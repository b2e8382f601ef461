//! The math verifier's integration tests: conformance with the peers' cases, held-out data, the
//! response anatomy, properties, strict defaults and the fixture files.

mod anatomy;
mod conformance;
mod fixtures;
mod held_out;
mod properties;
mod strict;
