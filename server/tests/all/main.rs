//! The `referee` command and the checked-in OpenAPI document, tested from outside the crate.

mod cli;
mod doctor;
mod openapi_sync;
