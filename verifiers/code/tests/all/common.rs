//! The verifier these tests share, on one sandbox configured as the server configures its own:
//! the runtimes folder in `REFEREE__SANDBOX__RUNTIMES_DIR` when it is set (the sandbox reads no
//! environment; tests are not the server, so they read it here), else this source tree's.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use referee_code::{Chain, CodeInput, CodeVerifier, Sandbox, SandboxConfig};
use referee_core::{Budget, RewardModel as _, Verdict};
use serde_json::Value;

/// The runtimes folder `scripts/build-runtimes` fills.
pub fn runtimes_dir() -> PathBuf {
    std::env::var_os("REFEREE__SANDBOX__RUNTIMES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../runtimes/build"))
}

/// A verifier on the sandbox of this test binary, made at first use.
pub fn verifier() -> anyhow::Result<CodeVerifier> {
    static SHARED: OnceLock<Result<Arc<Sandbox>, String>> = OnceLock::new();
    let sandbox = SHARED
        .get_or_init(|| {
            let config = SandboxConfig { runtimes_dir: runtimes_dir(), ..SandboxConfig::default() };
            Sandbox::new(config).map(Arc::new).map_err(|e| Chain(&e).to_string())
        })
        .clone()
        .map_err(anyhow::Error::msg)?;
    Ok(CodeVerifier::new().in_sandbox(sandbox))
}

/// Whether a suite is compared whole (`REFEREE_FULL_SUITES=1`) rather than CI's slice.
pub fn full_suites() -> bool {
    std::env::var_os("REFEREE_FULL_SUITES").is_some_and(|value| value == "1")
}

/// Judges `items` in one batch on the shared verifier, without a deadline.
pub async fn judge(items: Vec<CodeInput>) -> Vec<Verdict> {
    let verifier = verifier().unwrap_or_else(|e| panic!("no sandbox: {e}"));
    verifier.score_batch(items, Budget::unlimited()).await
}

/// The verdict of each test in a `code` verdict's details, in order.
pub fn verdict_names(details: &serde_json::Map<String, Value>) -> Vec<String> {
    details["tests"]
        .as_array()
        .map(|t| t.iter().map(|t| t["verdict"].as_str().unwrap_or("?").to_owned()).collect())
        .unwrap_or_default()
}

/// The string fields `names` of each row of a JSON-lines file, in that order.
pub fn jsonl_fields<const N: usize>(text: &str, names: [&str; N]) -> anyhow::Result<Vec<[String; N]>> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let row: Value = serde_json::from_str(line)?;
            let mut fields = names.map(|_| String::new());
            for (field, name) in fields.iter_mut().zip(names) {
                *field = row[name].as_str().map(str::to_owned).ok_or_else(|| anyhow::anyhow!("no {name}"))?;
            }
            Ok(fields)
        })
        .collect()
}

/// A program of a suite test: the task it solves, a name for reports, and its solution.
pub struct Candidate<'a, P> {
    pub problem: &'a P,
    pub task_id: &'a str,
    pub name: String,
    pub solution: String,
}

impl<'a, P> Candidate<'a, P> {
    /// The `kind` program of the task `task_id` ("canonical", "operator flipped"...).
    pub fn new(problem: &'a P, task_id: &'a str, kind: &str, solution: String) -> Self {
        let name = format!("{}-{}", task_id.replace('/', "-"), kind.replace(' ', "-"));
        Candidate { problem, task_id, name, solution }
    }
}

/// The operator flips of the mutants of C-like languages (Rust, Go): comparisons, equality and
/// the sign of an addition.
pub const OPERATOR_FLIPS: [(&str, &str); 8] = [
    (" <= ", " < "),
    (" >= ", " > "),
    (" < ", " <= "),
    (" > ", " >= "),
    (" == ", " != "),
    (" != ", " == "),
    (" + ", " - "),
    (" - ", " + "),
];

/// `solution` with the first of its operators found in `flips` replaced by its flip, or `None`
/// when it has none of them.
pub fn flip_first_operator(solution: &str, flips: &[(&str, &str)]) -> Option<String> {
    let (at, from, to) = flips.iter().filter_map(|(from, to)| solution.find(from).map(|at| (at, *from, *to))).min()?;
    Some(format!("{}{to}{}", &solution[..at], &solution[at + from.len()..]))
}

/// `native` on every candidate, on two threads, in order: whether the program passed natively
/// and what it said.
pub fn native_verdicts<P: Sync>(
    candidates: &[Candidate<'_, P>],
    native: impl Fn(&std::path::Path, &Candidate<'_, P>) -> anyhow::Result<(bool, String)> + Sync,
) -> anyhow::Result<Vec<(bool, String)>> {
    let dir = tempfile::tempdir()?;
    let half = candidates.len().div_ceil(2);
    std::thread::scope(|scope| {
        let workers: Vec<_> = candidates
            .chunks(half.max(1))
            .map(|chunk| {
                let (dir, native) = (dir.path(), &native);
                scope.spawn(move || chunk.iter().map(|candidate| native(dir, candidate)).collect())
            })
            .collect();
        let mut verdicts = Vec::with_capacity(candidates.len());
        for worker in workers {
            let chunk: anyhow::Result<Vec<_>> =
                worker.join().map_err(|_| anyhow::anyhow!("a native worker panicked"))?;
            verdicts.extend(chunk?);
        }
        Ok(verdicts)
    })
}

/// Judges `candidates` with Referee and with `native` (named `peer` in reports); returns
/// Referee's verdicts and every disagreement. A sandbox failure fails the test.
pub async fn compare_with_native<P: Sync>(
    candidates: &[Candidate<'_, P>],
    item: impl Fn(&Candidate<'_, P>) -> anyhow::Result<CodeInput>,
    peer: &str,
    native: impl Fn(&std::path::Path, &Candidate<'_, P>) -> anyhow::Result<(bool, String)> + Sync,
) -> anyhow::Result<(Vec<Verdict>, Vec<String>)> {
    use referee_core::Status;
    let items = candidates.iter().map(item).collect::<Result<_, _>>()?;
    let verdicts = judge(items).await;
    let native = native_verdicts(candidates, native)?;
    let mut disagreements = Vec::new();
    for ((candidate, verdict), (native_passed, native_said)) in candidates.iter().zip(&verdicts).zip(&native) {
        let details = Value::Object(verdict.details.clone());
        assert_ne!(verdict.status, Status::InternalError, "{}: {details}", candidate.name);
        if (verdict.status == Status::Correct) != *native_passed {
            disagreements.push(format!(
                "{} ({}): Referee {:?} {details}; {peer} {} {native_said}",
                candidate.task_id,
                candidate.name,
                verdict.status,
                if *native_passed { "passed" } else { "failed" },
            ));
        }
    }
    Ok((verdicts, disagreements))
}

/// Asserts that at most a tenth of the mutants pass (those that do pass under the peer too:
/// they are equivalent to the solution as far as the tests can tell), and reports them.
pub fn assert_few_survivors<P>(mutants: &[Candidate<'_, P>], verdicts: &[Verdict], peer: &str) {
    let survivors: Vec<&str> = mutants
        .iter()
        .zip(verdicts)
        .filter(|(_, v)| v.status == referee_core::Status::Correct)
        .map(|(candidate, _)| candidate.name.as_str())
        .collect();
    assert!(
        survivors.len() * 10 <= mutants.len(),
        "{} of {} mutants pass: {survivors:?}",
        survivors.len(),
        mutants.len()
    );
    eprintln!(
        "{} of {} mutants fail; passing under {peer} too: {survivors:?}",
        mutants.len() - survivors.len(),
        mutants.len()
    );
}
