//! The text verifiers' integration tests: their verdicts on the shared response-anatomy fixture
//! (`core/tests/fixtures/anatomy.jsonl`), pinned as snapshots (`snapshots/`).

mod anatomy;
