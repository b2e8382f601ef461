//! The math verifier's integration tests: conformance with the peers' cases, held-out data, the
//! response anatomy, properties, the counted work of hostile responses, strict defaults and the
//! fixture files. The verdicts on the peer
//! cases, the held-out rows and the fixture table are also pinned as snapshots (`snapshots/`).

mod anatomy;
mod conformance;
mod fixtures;
mod held_out;
mod hostile;
mod properties;
mod snapshot;
mod strict;
