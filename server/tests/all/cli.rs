//! The `referee` binary as a user runs it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

fn referee() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
    command.env_remove("RUST_LOG");
    for (key, _) in std::env::vars() {
        if key.starts_with("REFEREE__") {
            command.env_remove(key);
        }
    }
    command
}

fn run(command: &mut Command) -> (bool, String, String) {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run referee: {e}"));
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn http(addr: &str, request: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    stream.write_all(request.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response
}

/// Starts `referee serve` on a free port with `extra` arguments; returns the process and its
/// address once it logs that it is ready. The rest of its log is drained in the background.
fn serve(extra: &[&std::ffi::OsStr], env: &[(&str, &str)]) -> (std::process::Child, String) {
    let mut child = referee()
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(extra)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start referee: {e}"));
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
    let mut lines = BufReader::new(stdout).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    let addr = first
        .split("http://")
        .nth(1)
        .map(|rest| rest.trim().to_owned())
        .unwrap_or_else(|| panic!("first log line does not name the address: {first}"));
    for line in lines.by_ref() {
        if line.unwrap_or_default().contains("ready to serve") {
            break;
        }
    }
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

#[test]
fn serve_on_port_zero_prints_the_address_first_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (mut child, addr) = serve(&["--data-dir".as_ref(), dir.path().as_os_str()], &[]);
    assert!(!addr.ends_with(":0"), "{addr}");
    assert!(dir.path().join("referee.db").exists(), "the default SQLite database is created in the data directory");

    // A request whose body is still arriving when SIGTERM comes is answered before exit.
    let body = r#"{"items":[{"id":"x","verifier":"exact-match","input":{"response":"a","reference":"a"}}]}"#;
    let mut held = TcpStream::connect(&addr).unwrap_or_else(|e| panic!("{e}"));
    let head = format!(
        "POST /v1/score HTTP/1.1\r\nhost: t\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    held.write_all(head.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    held.write_all(&body.as_bytes()[..10]).unwrap_or_else(|e| panic!("{e}"));
    std::thread::sleep(Duration::from_millis(200));
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    assert!(status.is_ok_and(|s| s.success()));
    std::thread::sleep(Duration::from_millis(300));
    held.write_all(&body.as_bytes()[10..]).unwrap_or_else(|e| panic!("{e}"));
    let mut answer = String::new();
    let _ = held.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"correct\""), "{answer}");

    let exit = child.wait().unwrap_or_else(|e| panic!("{e}"));
    assert!(exit.success(), "referee exited with {exit}");
    assert!(TcpStream::connect(&addr).is_err());
}

#[test]
fn readyz_and_health_on_a_live_process() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let url = format!("sqlite://{}", dir.path().join("x/y.db").display());
    let (mut child, addr) = serve(&["--database-url".as_ref(), url.as_ref()], &[]);
    let ready = http(&addr, "GET /readyz HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n");
    assert!(ready.starts_with("HTTP/1.1 200"), "{ready}");
    assert!(dir.path().join("x/y.db").exists());
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let exit = child.wait().unwrap_or_else(|e| panic!("{e}"));
    assert!(exit.success(), "referee exited with {exit}");
}

#[test]
fn score_a_file_locally_in_order() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let input = dir.path().join("in.jsonl");
    let output = dir.path().join("out.jsonl");
    let mut lines = Vec::new();
    for i in 0..1200 {
        lines.push(format!(
            r#"{{"id":"{i}","verifier":"exact-match","input":{{"response":"{}","reference":"0"}}}}"#,
            i % 2
        ));
    }
    lines.insert(500, "this line is not json".to_owned());
    lines.insert(
        700,
        r#"{"id":"mc","verifier":"multiple-choice","input":{"response":"\\boxed{D}","reference":"D"}}"#.to_owned(),
    );
    std::fs::write(&input, lines.join("\n") + "\n").unwrap_or_else(|e| panic!("{e}"));
    let (ok, _, stderr) =
        run(referee().arg("score").arg(&input).arg("-o").arg(&output).args(["--batch-size", "100", "--quiet"]));
    assert!(ok, "{stderr}");
    assert!(stderr.contains("scored 1202 items: 601 correct, 1 invalid"), "{stderr}");
    let results: Vec<serde_json::Value> = std::fs::read_to_string(&output)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(results.len(), 1202);
    assert_eq!(results[0]["id"], "0");
    assert_eq!(results[0]["status"], "correct");
    assert_eq!(results[1]["status"], "incorrect");
    assert_eq!(results[500]["status"], "invalid_input");
    assert_eq!(results[700]["id"], "mc");
    assert_eq!(results[700]["status"], "correct");
    assert_eq!(results[1201]["id"], "1199");
}

#[test]
fn score_a_file_on_a_server_matches_local_scoring() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (mut child, addr) =
        serve(&["--data-dir".as_ref(), dir.path().as_os_str()], &[("REFEREE__JOBS__POLL_INTERVAL_MS", "50")]);

    let input = dir.path().join("in.jsonl");
    let items: Vec<String> = (0..750)
        .map(|i| {
            format!(r#"{{"id":"{i}","verifier":"exact-match","input":{{"response":"{}","reference":"1"}}}}"#, i % 5)
        })
        .chain(std::iter::once("not json".to_owned()))
        .collect();
    std::fs::write(&input, items.join("\n")).unwrap_or_else(|e| panic!("{e}"));
    let remote = dir.path().join("remote.jsonl");
    let local = dir.path().join("local.jsonl");
    let (ok, _, stderr) = run(referee().arg("score").arg(&input).arg("-o").arg(&remote).args([
        "--server",
        &format!("http://{addr}"),
        "--batch-size",
        "100",
        "--quiet",
    ]));
    assert!(ok, "{stderr}");
    assert!(stderr.contains("scored 751 items: 150 correct, 1 invalid"), "{stderr}");
    let (ok, _, stderr) = run(referee().arg("score").arg(&input).arg("-o").arg(&local).arg("--quiet"));
    assert!(ok, "{stderr}");
    let read = |path: &std::path::Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect()
    };
    let (remote, local) = (read(&remote), read(&local));
    assert_eq!(remote.len(), 751);
    for (i, (r, l)) in remote.iter().zip(&local).enumerate() {
        assert_eq!(r["index"], i);
        assert_eq!((&r["id"], &r["status"], &r["score"]), (&l["id"], &l["status"], &l["score"]), "line {i}");
    }
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let _ = child.wait();
}

#[test]
fn listing_openapi_and_config() {
    let (ok, stdout, _) = run(referee().arg("verifiers"));
    assert!(ok);
    for id in ["exact-match", "regex-match", "multiple-choice"] {
        assert!(stdout.contains(id), "{stdout}");
    }
    let (ok, stdout, _) = run(referee().args(["verifiers", "--json"]));
    assert!(ok);
    let listing: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}"));
    assert!(listing["verifiers"].as_array().is_some_and(|v| v.len() >= 3));

    let (ok, stdout, _) = run(referee().arg("openapi"));
    assert!(ok);
    let checked_in =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json")).unwrap_or_default();
    assert!(stdout == checked_in, "`referee openapi` differs from openapi/openapi.json");

    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("referee.toml");
    std::fs::write(&file, "[server]\nlisten = \"127.0.0.1:9001\"\nrequest_timeout_ms = 1234\n[auth]\napi_keys = [\"a-plain-key-of-16-chars\"]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let (ok, stdout, stderr) = run(referee()
        .args(["config", "show", "--config"])
        .arg(&file)
        .env("REFEREE__SERVER__LISTEN", "127.0.0.1:9002")
        .env("REFEREE__CACHE__ENABLED", "true"));
    assert!(ok, "{stderr}");
    assert!(stdout.contains("listen = \"127.0.0.1:9002\""), "environment beats the file:\n{stdout}");
    assert!(stdout.contains("request_timeout_ms = 1234"), "{stdout}");
    assert!(stdout.contains("enabled = true"), "{stdout}");
    assert!(
        stdout.contains("sha256:") && !stdout.contains("a-plain-key-of-16-chars"),
        "keys are shown hashed:\n{stdout}"
    );

    let (ok, _, stderr) = run(referee().args(["config", "show"]).env("REFEREE__SERVER__LISTN", "127.0.0.1:1"));
    assert!(!ok);
    assert!(stderr.contains("listn"), "the unknown key is named: {stderr}");
}

#[test]
fn the_sandbox_is_configured_through_the_layers_and_the_old_key_is_reported_as_moved() {
    let (ok, stdout, stderr) = run(referee()
        .args(["config", "show"])
        .env("REFEREE__CODE__RUNTIMES_DIR", "/old/runtimes")
        .env("REFEREE__SANDBOX__POOL_RUNS", "0"));
    assert!(ok, "{stderr}");
    assert!(stdout.starts_with("# code.runtimes_dir (REFEREE__CODE__RUNTIMES_DIR) is deprecated"), "{stdout}");
    assert!(stdout.contains("[sandbox]\nruntimes_dir = \"/old/runtimes\"\npool_runs = 0\n"), "{stdout}");

    // `referee score` runs code in a sandbox made from the same keys: a runtimes folder given by
    // flag whose python.wasm is not a component fails there, naming the file.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join("python.wasm"), b"not a component").unwrap_or_else(|e| panic!("{e}"));
    let input = dir.path().join("in.jsonl");
    let item = r#"{"id":"py","verifier":"code","input":{"language":"python","program":"print(1)","tests":[{"stdin":"","expected_stdout":"1\n"}]}}"#;
    std::fs::write(&input, format!("{item}\n")).unwrap_or_else(|e| panic!("{e}"));
    let (ok, stdout, stderr) = run(referee().args(["score", "--quiet", "--runtimes-dir"]).arg(dir.path()).arg(&input));
    assert!(ok, "{stderr}");
    let result: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(result["status"], "internal_error", "{result}");
    let wasm = dir.path().join("python.wasm").display().to_string();
    assert!(result.to_string().contains(&format!("cannot compile {wasm}: ")), "{result}");
}
