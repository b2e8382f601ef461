//! The verifier these tests share, on one sandbox configured as the server configures its own:
//! the runtimes folder in `REFEREE__SANDBOX__RUNTIMES_DIR` when it is set (the sandbox reads no
//! environment; tests are not the server, so they read it here), else this source tree's.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

use referee_code::{Chain, CodeInput, CodeVerifier, Sandbox, SandboxConfig};
use referee_core::{Budget, RewardModel as _, Status, Verdict};
use serde_json::Value;

/// The runtimes folder `scripts/build-runtimes` fills.
pub fn runtimes_dir() -> PathBuf {
    std::env::var_os("REFEREE__SANDBOX__RUNTIMES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../runtimes/build"))
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

/// A program of a suite test: the task it solves, its kind (`canonical` or the mutant's name), a
/// name for files and reports, and its solution.
pub struct Candidate<'a, P> {
    pub problem: &'a P,
    pub task_id: &'a str,
    pub kind: String,
    pub name: String,
    pub solution: String,
}

impl<'a, P> Candidate<'a, P> {
    /// The `kind` program of the task `task_id` ("canonical", "operator flipped"...).
    pub fn new(problem: &'a P, task_id: &'a str, kind: &str, solution: String) -> Self {
        let name = format!("{}-{}", task_id.replace('/', "-"), kind.replace(' ', "-"));
        Candidate { problem, task_id, kind: kind.to_owned(), name, solution }
    }

    /// Whether it is the task's canonical solution rather than a mutant.
    pub fn is_canonical(&self) -> bool {
        self.kind == "canonical"
    }

    fn key(&self) -> (&str, &str) {
        (self.task_id, &self.kind)
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

/// What a native run (or another peer) said of one candidate: whether it passed, what it wrote
/// for reports, and, for suites that compare it, its standard output.
pub struct NativeRun {
    pub passed: bool,
    pub said: String,
    pub output: Option<String>,
}

impl NativeRun {
    /// A verdict without an output to compare.
    pub fn verdict(passed: bool, said: impl Into<String>) -> Self {
        NativeRun { passed, said: said.into(), output: None }
    }
}

/// `native` on every candidate, on two threads, in order.
pub fn native_runs<P: Sync>(
    candidates: &[Candidate<'_, P>],
    native: impl Fn(&Path, &Candidate<'_, P>) -> anyhow::Result<NativeRun> + Sync,
) -> anyhow::Result<Vec<NativeRun>> {
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
        let mut runs = Vec::with_capacity(candidates.len());
        for worker in workers {
            let chunk: anyhow::Result<Vec<_>> =
                worker.join().map_err(|_| anyhow::anyhow!("a native worker panicked"))?;
            runs.extend(chunk?);
        }
        Ok(runs)
    })
}

/// The first line a tool prints about itself (`command` is its `--version` or the like), on
/// standard output or, failing that, standard error.
pub fn tool_version(command: &mut Command) -> anyhow::Result<String> {
    let output = command.output()?;
    anyhow::ensure!(output.status.success(), "{command:?} failed: {}", String::from_utf8_lossy(&output.stderr));
    let text = if output.stdout.iter().any(|b| !b.is_ascii_whitespace()) { output.stdout } else { output.stderr };
    let text = String::from_utf8_lossy(&text);
    text.lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| anyhow::anyhow!("{command:?} said nothing"))
}

/// Whether the full tier's native checks rewrite their records (`REFEREE_UPDATE_REFERENCES=1`)
/// instead of failing on a difference.
pub fn update_references() -> bool {
    std::env::var_os("REFEREE_UPDATE_REFERENCES").is_some_and(|value| value == "1")
}

/// The recorded native verdicts of a suite: `tests/data/native/<name>.tsv`, a header of `#`
/// lines, then one line per candidate, tab-separated: its task, its kind (`canonical` or the
/// mutant's name), `passed` or `failed`, the toolchain that said so (from its own `--version`)
/// and, for suites that compare it, the standard output as a JSON string.
///
/// The fast tier judges a slice of the candidates with Referee against these verdicts and runs no
/// native toolchain; the full tier runs the toolchain on every candidate and compares its
/// verdicts with the file (`check_native`), which `REFEREE_UPDATE_REFERENCES=1` rewrites.
pub struct NativeRecord {
    /// The file's name in `tests/data/native`, without `.tsv`.
    pub name: &'static str,
    /// What the file holds and how the native verdict is reached: the header's first lines.
    pub about: &'static str,
    /// The filter of the full-tier test that re-derives the file.
    pub test: &'static str,
    /// The peer's name in reports ("a native run", "Node.js", "Icarus Verilog").
    pub peer: &'static str,
}

/// One line of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    pub task_id: String,
    pub kind: String,
    pub passed: bool,
    pub toolchain: String,
    pub output: Option<String>,
}

impl Recorded {
    fn key(&self) -> (&str, &str) {
        (&self.task_id, &self.kind)
    }

    fn verdict(&self) -> &'static str {
        if self.passed { "passed" } else { "failed" }
    }

    /// The line as the file holds it.
    fn line(&self) -> String {
        let mut line = format!("{}\t{}\t{}\t{}", self.task_id, self.kind, self.verdict(), self.toolchain);
        if let Some(output) = &self.output {
            line.push('\t');
            line.push_str(&Value::String(output.clone()).to_string());
        }
        line
    }
}

impl NativeRecord {
    pub fn path(&self) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/native").join(format!("{}.tsv", self.name))
    }

    /// The command that re-derives the file.
    fn rerecord(&self) -> String {
        format!(
            "REFEREE_UPDATE_REFERENCES=1 cargo nextest run -p referee-code --test all --run-ignored all {}",
            self.test
        )
    }

    /// Every line of the file, in its order.
    pub fn read(&self) -> anyhow::Result<Vec<Recorded>> {
        let path = self.path();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| anyhow::anyhow!("{}: {e}; record it with `{}`", path.display(), self.rerecord()))?;
        let mut lines: Vec<Recorded> = Vec::new();
        let mut seen = HashSet::new();
        for (number, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')) {
            let at = || format!("{}:{}", path.display(), number + 1);
            let fields: Vec<&str> = line.split('\t').collect();
            let [task_id, kind, verdict, toolchain, rest @ ..] = fields.as_slice() else {
                anyhow::bail!("{}: fewer than four tab-separated fields", at());
            };
            let passed = match *verdict {
                "passed" => true,
                "failed" => false,
                other => anyhow::bail!("{}: `{other}` is neither passed nor failed", at()),
            };
            let output = match rest {
                [] => None,
                [json] => Some(serde_json::from_str::<String>(json).map_err(|e| anyhow::anyhow!("{}: {e}", at()))?),
                _ => anyhow::bail!("{}: more than five fields", at()),
            };
            let recorded = Recorded {
                task_id: (*task_id).to_owned(),
                kind: (*kind).to_owned(),
                passed,
                toolchain: (*toolchain).to_owned(),
                output,
            };
            anyhow::ensure!(seen.insert(line_key(&recorded)), "{}: {task_id} {kind} is recorded twice", at());
            lines.push(recorded);
        }
        Ok(lines)
    }

    /// Checks that the file names exactly `candidates` (every one the suite builds): a change of
    /// data or of mutant rules that was not re-recorded fails here.
    pub fn check_names_exactly<P>(&self, candidates: &[Candidate<'_, P>]) -> anyhow::Result<()> {
        let recorded = self.read()?;
        let built: HashSet<(&str, &str)> = candidates.iter().map(Candidate::key).collect();
        anyhow::ensure!(built.len() == candidates.len(), "the suite builds a candidate twice");
        let in_file: HashSet<(&str, &str)> = recorded.iter().map(Recorded::key).collect();
        let missing: Vec<String> = candidates
            .iter()
            .filter(|c| !in_file.contains(&c.key()))
            .map(|c| format!("{} {}", c.task_id, c.kind))
            .collect();
        let stale: Vec<String> = recorded
            .iter()
            .filter(|r| !built.contains(&r.key()))
            .map(|r| format!("{} {}", r.task_id, r.kind))
            .collect();
        anyhow::ensure!(
            missing.is_empty() && stale.is_empty(),
            "{} does not name exactly the {} candidates the suite builds; re-record it with `{}`\n\
             built, not recorded ({}): {missing:?}\nrecorded, not built ({}): {stale:?}",
            self.path().display(),
            candidates.len(),
            self.rerecord(),
            missing.len(),
            stale.len(),
        );
        Ok(())
    }

    /// The recorded line of each of `candidates`, in order.
    pub fn recorded<P>(&self, candidates: &[Candidate<'_, P>]) -> anyhow::Result<Vec<Recorded>> {
        let mut by_key: HashMap<(String, String), Recorded> =
            self.read()?.into_iter().map(|r| ((r.task_id.clone(), r.kind.clone()), r)).collect();
        candidates
            .iter()
            .map(|c| {
                by_key.remove(&(c.task_id.to_owned(), c.kind.clone())).ok_or_else(|| {
                    anyhow::anyhow!(
                        "{} {} is not in {}; re-record it with `{}`",
                        c.task_id,
                        c.kind,
                        self.path().display(),
                        self.rerecord()
                    )
                })
            })
            .collect()
    }

    /// Judges `candidates` with Referee and compares each verdict with the recorded one (a pass is
    /// `correct`): Referee's verdicts, the recorded lines and every disagreement. A sandbox
    /// failure fails the test.
    pub async fn judge<P>(
        &self,
        candidates: &[Candidate<'_, P>],
        item: impl Fn(&Candidate<'_, P>) -> anyhow::Result<CodeInput>,
    ) -> anyhow::Result<(Vec<Verdict>, Vec<Recorded>, Vec<String>)> {
        let recorded = self.recorded(candidates)?;
        let items = candidates.iter().map(item).collect::<Result<_, _>>()?;
        let verdicts = judge(items).await;
        let mut disagreements = Vec::new();
        for ((candidate, verdict), recorded) in candidates.iter().zip(&verdicts).zip(&recorded) {
            let details = Value::Object(verdict.details.clone());
            assert_ne!(verdict.status, Status::InternalError, "{}: {details}", candidate.name);
            if (verdict.status == Status::Correct) != recorded.passed {
                disagreements.push(format!(
                    "{} {}: Referee {:?} {details}; {} {} (recorded, {})",
                    candidate.task_id,
                    candidate.kind,
                    verdict.status,
                    self.peer,
                    recorded.verdict(),
                    recorded.toolchain,
                ));
            }
        }
        Ok((verdicts, recorded, disagreements))
    }

    /// The full tier's check of the file: runs `native` (the peer, `toolchain` as its `--version`
    /// names it) on every candidate the suite builds and compares each verdict (and output, where
    /// recorded) with the file. A difference fails with a diff of the lines; with
    /// `REFEREE_UPDATE_REFERENCES=1` the file is rewritten instead. A toolchain other than the
    /// recorded one is reported and fails nothing while the verdicts agree. A candidate for which
    /// `by_chance` holds passes or fails natively by chance: a difference is reported, and a
    /// rewrite keeps its recorded line.
    pub fn check_native<P: Sync>(
        &self,
        candidates: &[Candidate<'_, P>],
        toolchain: &str,
        native: impl Fn(&Path, &Candidate<'_, P>) -> anyhow::Result<NativeRun> + Sync,
        by_chance: impl Fn(&Candidate<'_, P>) -> bool,
    ) -> anyhow::Result<()> {
        let update = update_references();
        let recorded = match self.read() {
            Ok(recorded) => recorded,
            Err(_) if update && !self.path().exists() => Vec::new(),
            Err(e) => return Err(e),
        };
        let by_key: HashMap<(&str, &str), &Recorded> = recorded.iter().map(|r| (r.key(), r)).collect();
        let runs = native_runs(candidates, native)?;
        let mut lines = Vec::with_capacity(candidates.len());
        let mut diff = Vec::new();
        let mut chance = Vec::new();
        let mut other_toolchains = BTreeSet::new();
        for (candidate, run) in candidates.iter().zip(runs) {
            let now = Recorded {
                task_id: candidate.task_id.to_owned(),
                kind: candidate.kind.clone(),
                passed: run.passed,
                toolchain: toolchain.to_owned(),
                output: run.output,
            };
            let before = by_key.get(&candidate.key()).copied();
            let said = run.said.lines().next().unwrap_or_default().chars().take(160).collect::<String>();
            match before {
                None => diff.push(format!("+ {}\t({} said: {said})", now.line(), self.peer)),
                Some(before) if before.passed != now.passed || before.output != now.output => {
                    if by_chance(candidate) {
                        chance.push(format!(
                            "{} {}: recorded {}, now {}",
                            now.task_id,
                            now.kind,
                            before.verdict(),
                            now.verdict()
                        ));
                        lines.push(before.clone());
                        continue;
                    }
                    diff.push(format!("- {}\n+ {}\t({} said: {said})", before.line(), now.line(), self.peer));
                }
                Some(before) if before.toolchain != now.toolchain => {
                    other_toolchains.insert(before.toolchain.clone());
                }
                Some(_) => {}
            }
            lines.push(now);
        }
        let built: HashSet<(&str, &str)> = candidates.iter().map(Candidate::key).collect();
        diff.extend(
            recorded.iter().filter(|r| !built.contains(&r.key())).map(|r| format!("- {}\t(no longer built)", r.line())),
        );
        if !chance.is_empty() {
            eprintln!("{}: verdicts that are a matter of chance natively, kept as recorded: {chance:?}", self.name);
        }
        if !other_toolchains.is_empty() {
            eprintln!(
                "{}: recorded with {other_toolchains:?}, checked with {toolchain}: the verdicts agree",
                self.path().display()
            );
        }
        if update {
            let existed = self.path().exists();
            self.write(&lines)?;
            if existed {
                eprintln!("{}: rewritten, {} lines changed:\n{}", self.path().display(), diff.len(), diff.join("\n"));
            } else {
                eprintln!("{}: recorded, {} lines", self.path().display(), lines.len());
            }
            return Ok(());
        }
        anyhow::ensure!(
            diff.is_empty(),
            "{} of {} native verdicts differ from {}:\n{}\nAfter review, rewrite the file with `{}`.",
            diff.len(),
            candidates.len(),
            self.path().display(),
            diff.join("\n"),
            self.rerecord()
        );
        eprintln!("{} native verdicts agree with {} ({toolchain})", candidates.len(), self.path().display());
        Ok(())
    }

    fn write(&self, lines: &[Recorded]) -> anyhow::Result<()> {
        let mut text: String = self.about.lines().map(|line| format!("# {line}\n")).collect();
        let output = if lines.iter().any(|l| l.output.is_some()) { "\toutput" } else { "" };
        text.push_str(&format!("# Re-derive: {}\n# task\tkind\tnative\ttoolchain{output}\n", self.rerecord()));
        for line in lines {
            text.push_str(&line.line());
            text.push('\n');
        }
        let path = self.path();
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&path, text)?;
        Ok(())
    }
}

fn line_key(recorded: &Recorded) -> (String, String) {
    (recorded.task_id.clone(), recorded.kind.clone())
}

/// Asserts that at most a tenth of the mutants among `candidates` pass (those that do pass under
/// the peer too: they are equivalent to the solution as far as the tests can tell), and reports
/// them.
pub fn assert_few_survivors<P>(candidates: &[Candidate<'_, P>], verdicts: &[Verdict], peer: &str) {
    let mutants: Vec<_> = candidates.iter().zip(verdicts).filter(|(c, _)| !c.is_canonical()).collect();
    let survivors: Vec<&str> = mutants
        .iter()
        .filter(|(_, v)| v.status == Status::Correct)
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
