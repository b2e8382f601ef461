//! The NP environments' integration tests: the public API and the golden instances.

mod api;
mod golden;
