//! The hostile-program corpus (`tests/hostile/<language>/*`): each program's first line states the
//! verdict it must get. None may pass, none may touch the host, and the host stays healthy.

use std::path::Path;

use referee_code::CodeInput;
use referee_core::{Budget, RewardModel as _, Status};
use serde_json::{Value, json};

use super::common;

struct Fixture {
    name: String,
    language: &'static str,
    source: String,
    expected: String,
}

fn fixtures(language: &str) -> anyhow::Result<Vec<Fixture>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile").join(language);
    let mut fixtures = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let path = entry?.path();
        let source = std::fs::read_to_string(&path)?;
        let expected = source
            .lines()
            .next()
            .and_then(|line| line.split_once("expect:"))
            .map(|(_, verdict)| verdict.trim().to_owned())
            .ok_or_else(|| anyhow::anyhow!("{} has no `expect:` first line", path.display()))?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let language = match path.extension().and_then(|e| e.to_str()) {
            Some("py") => "python",
            Some("c") => "c",
            Some("cpp") => "cpp",
            Some("js") => "javascript",
            Some("rs") => "rust",
            Some("go") => "go",
            other => anyhow::bail!("{}: unknown extension {other:?}", path.display()),
        };
        fixtures.push(Fixture { name, language, source, expected });
    }
    fixtures.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(fixtures)
}

fn item(language: &str, source: &str) -> anyhow::Result<CodeInput> {
    Ok(serde_json::from_value(json!({
        "language": language,
        "program": source,
        "tests": [{"stdin": "", "expected_stdout": "ok\n"}],
        "options": {"fuel": 2_000_000_000u64, "time_limit_ms": 2000, "memory_mb": 64, "output_limit_bytes": 1 << 20},
    }))?)
}

/// Judges every fixture of a folder; returns the mismatches.
async fn judge_corpus(fixtures: &[Fixture]) -> anyhow::Result<Vec<String>> {
    let items = fixtures.iter().map(|f| item(f.language, &f.source)).collect::<Result<_, _>>()?;
    let verdicts = common::verifier()?.score_batch(items, Budget::unlimited()).await;
    let mut mismatches = Vec::new();
    for (fixture, verdict) in fixtures.iter().zip(&verdicts) {
        let got = verdict.details.get("tests").and_then(|t| t[0]["verdict"].as_str()).unwrap_or("none");
        let details = Value::Object(verdict.details.clone());
        if verdict.status == Status::InternalError {
            mismatches.push(format!("{}: the sandbox failed: {details}", fixture.name));
        } else if verdict.score != 0.0 {
            mismatches.push(format!("{}: passed: {details}", fixture.name));
        } else if got != fixture.expected {
            mismatches.push(format!("{}: expected {}, got {got} {details}", fixture.name, fixture.expected));
        }
    }
    Ok(mismatches)
}

/// Nothing reached the host, and the sandbox the corpus ran in still judges ordinary programs.
async fn assert_host_healthy() -> anyhow::Result<()> {
    assert!(!Path::new("/tmp/referee-pwned").exists());
    assert!(!Path::new("/tmp/referee-dir").exists());
    let healthy = common::verifier()?.score_batch(vec![item("python", "print('ok')")?], Budget::unlimited()).await;
    assert_eq!(healthy[0].status, Status::Correct);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_python_programs_get_their_verdicts() -> anyhow::Result<()> {
    let fixtures = fixtures("python")?;
    assert!(fixtures.len() >= 50, "{} fixtures", fixtures.len());
    let mismatches = judge_corpus(&fixtures).await?;
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert_host_healthy().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_c_and_cpp_programs_get_their_verdicts() -> anyhow::Result<()> {
    let fixtures = fixtures("c")?;
    let mismatches = judge_corpus(&fixtures).await?;
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert_host_healthy().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_javascript_programs_get_their_verdicts() -> anyhow::Result<()> {
    let fixtures = fixtures("javascript")?;
    assert!(fixtures.len() >= 40, "{} fixtures", fixtures.len());
    let mismatches = judge_corpus(&fixtures).await?;
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert_host_healthy().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_go_programs_get_their_verdicts() -> anyhow::Result<()> {
    let fixtures = fixtures("go")?;
    assert!(fixtures.len() >= 25, "{} fixtures", fixtures.len());
    let mismatches = judge_corpus(&fixtures).await?;
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert_host_healthy().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_rust_programs_get_their_verdicts() -> anyhow::Result<()> {
    let fixtures = fixtures("rust")?;
    assert!(fixtures.len() >= 25, "{} fixtures", fixtures.len());
    let mismatches = judge_corpus(&fixtures).await?;
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert_host_healthy().await
}
