//! `referee doctor` as a user runs it: it exits 0 when what the configuration needs works, and
//! 1 with the failed check, its cause and its fix when something does not.

use std::process::Command;

fn doctor(args: &[&str]) -> (bool, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
    command.env_remove("RUST_LOG");
    for (key, _) in std::env::vars() {
        if key.starts_with("REFEREE__") {
            command.env_remove(key);
        }
    }
    let output = command.arg("doctor").args(args).output().unwrap_or_else(|e| panic!("cannot run referee: {e}"));
    (output.status.success(), String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn a_host_with_the_runtimes_and_toolchain_passes() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let data = dir.path().join("data");
    let (ok, report) = doctor(&["--data-dir", &data.display().to_string()]);
    assert!(ok, "{report}");
    for line in [
        "[ok  ] configuration",
        "[ok  ] database",
        "[ok  ] python runtime",
        "[ok  ] c compiler",
        "[ok  ] c++ compiler",
        "[ok  ] verilog runtime",
    ] {
        assert!(report.contains(line), "{line} missing from\n{report}");
    }
    // Without a local CUDA model the GPU libraries are not needed: never a FAIL.
    assert!(!report.contains("[FAIL]"), "{report}");
}

#[test]
fn an_unreachable_database_fails_the_doctor_naming_the_url_without_its_password() {
    // Nothing listens on port 1.
    let (ok, report) = doctor(&["--database-url", "postgres://referee:hunter2@127.0.0.1:1/referee"]);
    assert!(!ok, "{report}");
    assert!(
        report.contains("[FAIL] database") && report.contains("postgres://referee:***@127.0.0.1:1/referee"),
        "{report}"
    );
    assert!(report.contains("fix: start PostgreSQL"), "{report}");
    assert!(!report.contains("hunter2"), "{report}");
}

#[test]
fn an_invalid_configuration_fails_the_doctor_naming_the_key() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("referee.toml");
    std::fs::write(&file, "[server]\nmax_batch_items = 0\n").unwrap_or_else(|e| panic!("{e}"));
    let (ok, report) = doctor(&["--config", &file.display().to_string()]);
    assert!(!ok, "{report}");
    assert!(report.contains("[FAIL] configuration") && report.contains("server.max_batch_items"), "{report}");
}
