//! The local model against an independent reference: `scripts/rlpr_reference.py` (PyTorch and
//! transformers on CPU, with its own port of the RLPR text rules) scores the same cases on the
//! same seeded random Qwen2- and Llama-shaped models (`scripts/rlpr-fixture.py`: numpy weights
//! and Qwen2.5's real tokenizer). Token ids and scored positions must be identical, and every
//! log-prob, score and reward must agree within 1e-4.
//!
//! What PyTorch gave is recorded in `tests/data/reference.json`, with the versions that gave it
//! and fingerprints of the fixture files it scored. The default tests hold the local model to
//! that file and need only the fixtures' Python packages (`scripts/requirements-test.txt`). The
//! full tier's test (`scripts/test --full`) runs PyTorch (`scripts/requirements-rlpr.txt` too) on
//! the same fixtures, holds the file to what it gives, and the local model to PyTorch directly;
//! with `REFEREE_UPDATE_REFERENCES=1` it writes the file from PyTorch's output instead.
//!
//! The Python is `REFEREE_PYTHON`, or the repository's `.venv/bin/python` (which `scripts/test`
//! sets up). Without one the tests fail, by design.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use referee_rlpr::{
    ChatMessage, FormatMode, LocalModel, ModelError, RewardOptions, ScoreKind, ScoringText, TokenSequence, baseline,
    substitute,
};
use serde_json::{Map, Value, json};

/// How far a log-prob, score or reward may be from the reference's.
const TOLERANCE: f64 = 1e-4;

/// The recorded reference, relative to this crate.
const RECORDED: &str = "tests/data/reference.json";

/// The command that writes [`RECORDED`] again from PyTorch's output.
const RECORD: &str = "REFEREE_UPDATE_REFERENCES=1 cargo test -p referee-rlpr --test reference -- --ignored pytorch";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python() -> PathBuf {
    let python =
        std::env::var_os("REFEREE_PYTHON").map(PathBuf::from).unwrap_or_else(|| root().join(".venv/bin/python"));
    assert!(
        python.exists(),
        "no Python at {} for the RLPR fixtures: set REFEREE_PYTHON or create .venv with \
         `pip install -r scripts/requirements-test.txt` (scripts/test does)",
        python.display()
    );
    python
}

fn run_python(args: &[&str], needs: &str) -> Vec<u8> {
    let output = match Command::new(python()).args(args).output() {
        Ok(output) => output,
        Err(error) => panic!("cannot run {}: {error}", python().display()),
    };
    assert!(
        output.status.success(),
        "{args:?} failed (does the Python have {needs}?):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap_or_else(|| panic!("non-UTF-8 path {}", p.display()))
}

/// FNV-1a over 64-bit little-endian words (the last one zero-padded), then the length: a
/// fingerprint of a fixture file that a change to any one word of it changes, without a
/// hashing crate.
fn fingerprint(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for word in bytes.chunks(8).chain(std::iter::once(&(bytes.len() as u64).to_le_bytes()[..])) {
        let mut padded = [0u8; 8];
        padded[..word.len()].copy_from_slice(word);
        hash = (hash ^ u64::from_le_bytes(padded)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn read(file: &Path) -> Vec<u8> {
    std::fs::read(file).unwrap_or_else(|error| panic!("read {}: {error}", file.display()))
}

/// The fixtures, by name: the arguments of `scripts/rlpr-fixture.py` after its output folder.
/// The Llama fixture copies the Qwen2 fixture's tokenizer rather than converting the ranks again.
const FIXTURE_ARGS: [(&str, &[&str]); 2] = [
    ("qwen2", &["--arch", "qwen2", "--seed", "7"]),
    ("llama", &["--arch", "llama", "--seed", "11", "--shards", "2", "--tokenizer-from", "qwen2/tokenizer.json"]),
];

struct Fixtures {
    dir: PathBuf,
    qwen: PathBuf,
    llama: PathBuf,
    /// `{"qwen2/config.json": "<fingerprint>", ...}` over every file of both models.
    fingerprints: Value,
}

/// Runs `scripts/rlpr-fixture.py` for both models into `dir`, and writes their fingerprints
/// to `dir/fingerprints.json` last.
fn make_fixtures(dir: &Path) {
    let script = root().join("scripts/rlpr-fixture.py");
    let mut fingerprints = Map::new();
    for (name, args) in FIXTURE_ARGS {
        let out = dir.join(name);
        let args: Vec<String> = args
            .iter()
            .map(|arg| if arg.ends_with(".json") { path(&dir.join(arg)).to_owned() } else { (*arg).to_owned() })
            .collect();
        let mut all = vec![path(&script), path(&out)];
        all.extend(args.iter().map(String::as_str));
        run_python(&all, "scripts/requirements-test.txt");
        let mut files: Vec<PathBuf> = match std::fs::read_dir(&out) {
            Ok(entries) => entries.filter_map(Result::ok).map(|entry| entry.path()).collect(),
            Err(error) => panic!("{}: {error}", out.display()),
        };
        files.sort();
        for file in files {
            let key = format!("{name}/{}", file.file_name().and_then(|f| f.to_str()).unwrap_or_default());
            fingerprints.insert(key, json!(format!("{:016x}", fingerprint(&read(&file)))));
        }
    }
    let file = dir.join("fingerprints.json");
    if let Err(error) = std::fs::write(&file, Value::Object(fingerprints).to_string()) {
        panic!("write {}: {error}", file.display());
    }
}

/// The two seeded models, made once in the test target's temporary folder under a name that
/// follows the fixture script, the pinned packages (`scripts/requirements-test.txt`) and the
/// Python: each is written to a fresh folder that is then renamed into place, so test processes
/// running at once never read a half-written model, and a changed script makes them anew.
fn fixtures() -> &'static Fixtures {
    static FIXTURES: OnceLock<Fixtures> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rlpr-fixtures");
        let mut inputs = read(&root().join("scripts/rlpr-fixture.py"));
        inputs.extend(read(&root().join("scripts/requirements-test.txt")));
        inputs.extend(path(&python()).as_bytes());
        let dir = base.join(format!("{:016x}", fingerprint(&inputs)));
        if !dir.exists() {
            if let Err(error) = std::fs::create_dir_all(&base) {
                panic!("{}: {error}", base.display());
            }
            let fresh = match tempfile::Builder::new().prefix(".making-").tempdir_in(&base) {
                Ok(fresh) => fresh,
                Err(error) => panic!("tempdir in {}: {error}", base.display()),
            };
            make_fixtures(fresh.path());
            // Another process may have put its (identical) fixtures there first.
            if let Err(error) = std::fs::rename(fresh.path(), &dir)
                && !dir.exists()
            {
                panic!("rename {} to {}: {error}", fresh.path().display(), dir.display());
            }
            // Fixtures of an earlier script or set of packages (not another process's fresh folder).
            for entry in std::fs::read_dir(&base).into_iter().flatten().filter_map(Result::ok) {
                let making = entry.file_name().to_str().is_some_and(|name| name.starts_with(".making-"));
                if entry.path() != dir && !making {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        let fingerprints = serde_json::from_slice(&read(&dir.join("fingerprints.json")))
            .unwrap_or_else(|error| panic!("{}/fingerprints.json: {error}", dir.display()));
        Fixtures { qwen: dir.join("qwen2"), llama: dir.join("llama"), fingerprints, dir }
    })
}

fn load(dir: &Path) -> LocalModel {
    match LocalModel::load(dir) {
        Ok(model) => model,
        Err(error) => panic!("{}: {error}", dir.display()),
    }
}

struct Case {
    llama: bool,
    messages: Vec<(&'static str, &'static str)>,
    response: &'static str,
    reference: &'static str,
    mode: FormatMode,
}

fn cases() -> Vec<Case> {
    let user = |text: &'static str| vec![("user", text)];
    let r1 = FormatMode::R1;
    let nothink = FormatMode::R1Nothink;
    let repeated: &'static str = Box::leak(
        format!(
            "<think>{}</think> <answer>7</answer>",
            "we add the two numbers and then check the sum again. ".repeat(12)
        )
        .into_boxed_str(),
    );
    vec![
        Case {
            llama: false,
            messages: user("What is 2 + 2?"),
            response: "<think>2 + 2 = 4</think> so <answer>5</answer>",
            reference: "4",
            mode: r1,
        },
        Case {
            llama: false,
            messages: vec![("system", "Think, then answer in <answer> tags."), ("user", "Capital of Japan, in kanji?")],
            response: "<think>The capital is Tokyo, 東京; déjà vu.</think>\n<answer>\n Kyoto </answer><|im_end|>",
            reference: "東京 (Tōkyō)",
            mode: r1,
        },
        // The space before a word joins its token, so the first answer token straddles the
        // answer's start; rare characters split into byte tokens that share offsets.
        Case {
            llama: false,
            messages: user("Name it."),
            response: "<think>hmm</think><answer>wrong</answer>",
            reference: "hello world 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 x=12345",
            mode: r1,
        },
        Case { llama: false, messages: user("Say 4."), response: "just 4, no tags", reference: "4", mode: r1 },
        Case { llama: false, messages: user("Repeat yourself."), response: repeated, reference: "7", mode: r1 },
        Case {
            llama: true,
            messages: vec![
                ("system", "  Be brief.  "),
                ("user", "Which option? A) 41 B) 42"),
                ("assistant", "Let me see."),
                ("user", "Well?"),
            ],
            response: "Reasoning step by step: 42 is B.\n<answer>A</answer>",
            reference: "B) 42",
            mode: nothink,
        },
        Case {
            llama: true,
            messages: user("Spell naïve café."),
            response: "<think>accents</think> <answer>\tnaive</answer>",
            reference: "naïve café",
            mode: r1,
        },
        Case {
            llama: true,
            messages: user("No structure."),
            response: "<answer>  </answer>",
            reference: "x",
            mode: nothink,
        },
    ]
}

/// RLPR's Llama and Gemma scripts compute the log-probs at their rollout temperature, 0.6.
const TEMPERATURE: f32 = 0.6;

/// One structured response to score at [`TEMPERATURE`] on each model.
fn temperature_cases() -> Vec<Case> {
    let (response, reference) = ("<think>7 × 6 = 42</think> so <answer>41</answer>", "42 apples");
    [(false, FormatMode::R1), (true, FormatMode::R1Nothink)]
        .into_iter()
        .map(|(llama, mode)| Case { llama, messages: vec![("user", "What is 7 × 6?")], response, reference, mode })
        .collect()
}

/// A case as `scripts/rlpr_reference.py` takes it, with the model named rather than located.
fn input(case: &Case, temperature: Option<f32>) -> Value {
    let mut input = json!({
        "model": if case.llama { "llama" } else { "qwen2" },
        "messages": case.messages.iter().map(|(role, content)| json!({"role": role, "content": content})).collect::<Vec<_>>(),
        "response": case.response,
        "reference": case.reference,
        "format_mode": case.mode,
    });
    if let (Some(temperature), Some(object)) = (temperature, input.as_object_mut()) {
        object.insert("temperature".to_owned(), json!(temperature));
    }
    input
}

/// The inputs of both sets of cases: the plain ones, then those at [`TEMPERATURE`].
fn inputs() -> (Vec<Value>, Vec<Value>) {
    (
        cases().iter().map(|case| input(case, None)).collect(),
        temperature_cases().iter().map(|case| input(case, Some(TEMPERATURE))).collect(),
    )
}

fn close(ours: f64, theirs: f64, what: &str) {
    assert!((ours - theirs).abs() <= TOLERANCE, "{what}: {ours} vs reference {theirs}");
}

/// Scores a text with the local model: its token sequence and the scored tokens' log-probs.
fn score(model: &LocalModel, text: ScoringText) -> (TokenSequence, Vec<f32>) {
    let sequence = match model.prepare(&text) {
        Ok(sequence) => sequence,
        Err(error) => panic!("prepare: {error}"),
    };
    let logprobs = match model.logprobs(std::slice::from_ref(&sequence)) {
        Ok(mut all) => all.remove(0),
        Err(error) => panic!("logprobs: {error}"),
    };
    (sequence, logprobs)
}

fn compare_text(name: &str, ours: &(TokenSequence, Vec<f32>), theirs: &Value) {
    let ids: Vec<u32> = serde_json::from_value(theirs["ids"].clone()).unwrap_or_default();
    let positions: Vec<u32> = serde_json::from_value(theirs["positions"].clone()).unwrap_or_default();
    let logprobs: Vec<f64> = serde_json::from_value(theirs["logprobs"].clone()).unwrap_or_default();
    assert_eq!(ours.0.ids, ids, "{name}: token ids");
    assert_eq!(ours.0.positions, positions, "{name}: scored positions");
    assert_eq!(ours.1.len(), logprobs.len(), "{name}: log-prob count");
    for (i, (a, b)) in ours.1.iter().zip(&logprobs).enumerate() {
        close(f64::from(*a), *b, &format!("{name}: log-prob of scored token {i}"));
    }
}

/// The local model against the reference's results for [`cases`] (`against` names the
/// reference): rendered prompts and texts, token ids, positions, log-probs, every score kind and
/// the reward.
fn check_scores(results: &[Value], against: &str) {
    let fixtures = fixtures();
    let (qwen, llama) = (load(&fixtures.qwen), load(&fixtures.llama));
    let cases = cases();
    assert_eq!(results.len(), cases.len());
    println!("against {against}:");

    let mut best_mean_prob = 0.0f64;
    let mut scored_tokens = 0;
    for (index, (case, theirs)) in cases.iter().zip(results).enumerate() {
        let model = if case.llama { &llama } else { &qwen };
        let name = format!("case {index} ({})", if case.llama { "llama" } else { "qwen2" });
        let messages: Vec<ChatMessage> = case
            .messages
            .iter()
            .map(|(role, content)| ChatMessage { role: (*role).to_owned(), content: (*content).to_owned() })
            .collect();
        let prompt = match model.tokenizer().render(&messages, true) {
            Ok(prompt) => prompt,
            Err(error) => panic!("{name}: render: {error}"),
        };
        assert_eq!(theirs["prompt"].as_str(), Some(prompt.as_str()), "{name}: rendered prompt");
        let eos = model.tokenizer().eos_token();

        let with_reasoning = substitute(case.response, case.reference, eos, case.mode).map(|sub| {
            let text = ScoringText {
                text: format!("{prompt}{}", sub.text),
                answer: prompt.len() + sub.answer.start..prompt.len() + sub.answer.end,
            };
            assert_eq!(theirs["with_reasoning"]["text"].as_str(), Some(text.text.as_str()), "{name}: substituted text");
            score(model, text)
        });
        match &with_reasoning {
            Some(ours) => compare_text(&format!("{name}, with reasoning"), ours, &theirs["with_reasoning"]),
            None => {
                assert!(theirs["with_reasoning"].is_null(), "{name}: the reference scored an unstructured response")
            }
        }
        let base = baseline(&prompt, case.reference, eos);
        assert_eq!(theirs["baseline"]["text"].as_str(), Some(base.text.as_str()), "{name}: baseline text");
        let without = score(model, ScoringText { text: base.text, answer: base.answer });
        compare_text(&format!("{name}, baseline"), &without, &theirs["baseline"]);

        let ours_b: Vec<f64> =
            with_reasoning.as_ref().map(|(_, lp)| lp.iter().map(|&x| f64::from(x)).collect()).unwrap_or_default();
        let ours_a: Vec<f64> = without.1.iter().map(|&x| f64::from(x)).collect();
        scored_tokens += ours_b.len() + ours_a.len();
        for (kind, key) in [
            (ScoreKind::MeanProb, "mean_prob"),
            (ScoreKind::MeanLogprob, "mean_logprob"),
            (ScoreKind::GeoMean, "geo_mean"),
            (ScoreKind::Product, "product"),
        ] {
            for (ours, theirs, which) in
                [(&ours_b, &theirs["score_b"], "score_b"), (&ours_a, &theirs["score_a"], "score_a")]
            {
                let Some(reference) = theirs[key].as_f64() else { panic!("{name}: reference lacks {which}.{key}") };
                let value = kind.of(ours.iter().copied());
                close(value, reference, &format!("{name}: {which} {key}"));
                if kind != ScoreKind::MeanLogprob && reference > 0.0 {
                    // Probabilities are small: hold them to a relative bound as well.
                    assert!(
                        (value - reference).abs() <= 1e-3 * reference,
                        "{name}: {which} {key}: {value} vs {reference}"
                    );
                }
            }
        }
        let score_b = ScoreKind::MeanProb.of(ours_b.iter().copied());
        let score_a = ScoreKind::MeanProb.of(ours_a.iter().copied());
        best_mean_prob = best_mean_prob.max(score_b).max(score_a);
        let options = RewardOptions { format_mode: case.mode, ..RewardOptions::default() };
        let reward = options.reward(case.response, score_b, Some(score_a)).reward;
        let Some(reference) = theirs["reward"].as_f64() else { panic!("{name}: reference lacks the reward") };
        close(reward, reference, &format!("{name}: reward"));
        println!(
            "{name}: {} + {} scored tokens, score_b {score_b:.6}, score_a {score_a:.6}, reward {reward:.6}",
            ours_b.len(),
            ours_a.len()
        );
    }
    // The fixtures concentrate probability on common tokens, so agreement is not vacuous.
    assert!(best_mean_prob > 1e-3, "the fixture models give the answers near-uniform probabilities ({best_mean_prob})");
    assert!(scored_tokens > 50, "only {scored_tokens} tokens were scored");
}

/// The local model at [`TEMPERATURE`] against the reference's `log_softmax(logits / 0.6)` for
/// [`temperature_cases`]; the log-probs differ from those at temperature 1.
fn check_temperature(results: &[Value]) {
    let fixtures = fixtures();
    let cases = temperature_cases();
    assert_eq!(results.len(), cases.len());
    for (case, theirs) in cases.iter().zip(results) {
        let name = if case.llama { "llama at 0.6" } else { "qwen2 at 0.6" };
        let dir = if case.llama { &fixtures.llama } else { &fixtures.qwen };
        let warm = load(dir);
        let cold = match load(dir).with_temperature(TEMPERATURE) {
            Ok(model) => model,
            Err(error) => panic!("{name}: {error}"),
        };
        let Some(prompt) = theirs["prompt"].as_str() else { panic!("{name}: no prompt") };
        let eos = cold.tokenizer().eos_token();
        let Some(sub) = substitute(case.response, case.reference, eos, case.mode) else {
            panic!("{name}: structured response")
        };
        let text = ScoringText {
            text: format!("{prompt}{}", sub.text),
            answer: prompt.len() + sub.answer.start..prompt.len() + sub.answer.end,
        };
        let ours = score(&cold, text.clone());
        compare_text(&format!("{name}, with reasoning"), &ours, &theirs["with_reasoning"]);
        let base = baseline(prompt, case.reference, eos);
        let base = ScoringText { text: base.text, answer: base.answer };
        compare_text(&format!("{name}, baseline"), &score(&cold, base), &theirs["baseline"]);
        let at_one = score(&warm, text);
        assert!(
            ours.1.iter().zip(&at_one.1).any(|(a, b)| (a - b).abs() > 1e-2),
            "{name}: the temperature changed nothing ({:?} against {:?})",
            ours.1,
            at_one.1
        );
    }
}

/// Where `now` differs from `recorded`, one line each: strings, integers (token ids and
/// positions) and shapes exactly, other numbers within [`TOLERANCE`] (probabilities within 0.1%
/// relative as well).
fn differences(at: &str, recorded: &Value, now: &Value, out: &mut Vec<String>) {
    fn brief(value: &Value) -> String {
        let text = value.to_string();
        match text.char_indices().nth(160) {
            Some((end, _)) => format!("{}… ({} characters)", &text[..end], text.len()),
            None => text,
        }
    }
    match (recorded, now) {
        (Value::Object(recorded), Value::Object(now)) => {
            for (key, value) in recorded {
                match now.get(key) {
                    Some(other) => differences(&format!("{at}.{key}"), value, other, out),
                    None => out.push(format!("{at}.{key}: recorded, but missing now")),
                }
            }
            out.extend(
                now.keys().filter(|key| !recorded.contains_key(*key)).map(|key| format!("{at}.{key}: not recorded")),
            );
        }
        (Value::Array(recorded), Value::Array(now)) if recorded.len() == now.len() => {
            for (i, (a, b)) in recorded.iter().zip(now).enumerate() {
                differences(&format!("{at}[{i}]"), a, b, out);
            }
        }
        (Value::Number(a), Value::Number(b)) if a.is_f64() || b.is_f64() => {
            let (a, b) = (a.as_f64().unwrap_or(f64::NAN), b.as_f64().unwrap_or(f64::NAN));
            let probability = ["mean_prob", "geo_mean", "product"].iter().any(|key| at.ends_with(key));
            let near = (a - b).abs() <= TOLERANCE && (!probability || a <= 0.0 || (a - b).abs() <= 1e-3 * a);
            if !near {
                out.push(format!("{at}: recorded {a}, now {b} (differs by {:.3e})", (a - b).abs()));
            }
        }
        (recorded, now) => {
            if recorded != now {
                out.push(format!("{at}: recorded {}, now {}", brief(recorded), brief(now)));
            }
        }
    }
}

fn recorded_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(RECORDED)
}

/// The recorded reference's results for both sets of cases, after checking that it was recorded
/// from these fixture files and for these cases.
fn recorded() -> (Vec<Value>, Vec<Value>) {
    let file = recorded_path();
    let recorded: Value = serde_json::from_slice(&read(&file))
        .unwrap_or_else(|error| panic!("{}: {error}; write it again with PyTorch: {RECORD}", file.display()));
    let mut wrong = Vec::new();
    differences("fixtures", &recorded["fixtures"]["fingerprints"], &fixtures().fingerprints, &mut wrong);
    assert!(
        wrong.is_empty(),
        "the fixture models in {} are not those {RECORDED} was recorded from (scripts/rlpr-fixture.py \
         or the packages that run it changed?):\n  {}\nRecord it again with PyTorch: {RECORD}\n(If the \
         Python's packages changed by hand, delete that folder: the tests make it again.)",
        fixtures().dir.display(),
        wrong.join("\n  ")
    );
    let (plain, cold) = inputs();
    let mut results = Vec::new();
    for (key, inputs) in [("cases", plain), ("temperature_cases", cold)] {
        let entries = recorded[key].as_array().cloned().unwrap_or_default();
        let recorded_inputs: Vec<Value> = entries.iter().map(|entry| entry["input"].clone()).collect();
        differences(key, &Value::Array(recorded_inputs), &Value::Array(inputs), &mut wrong);
        results.push(entries.into_iter().map(|mut entry| entry["output"].take()).collect::<Vec<_>>());
    }
    assert!(
        wrong.is_empty(),
        "the cases are not those {RECORDED} holds:\n  {}\nRecord it again with PyTorch: {RECORD}",
        wrong.join("\n  ")
    );
    let cold = results.pop().unwrap_or_default();
    (results.pop().unwrap_or_default(), cold)
}

/// `value` as JSON, one key or nested item per line and each array of numbers or strings on
/// one line, so a change of the recorded file reads as a diff of the cases it touches. Keys are
/// sorted, the header's first.
fn pretty(value: &Value, depth: usize, out: &mut String) {
    const FIRST: [&str; 3] = ["produced_by", "fixtures", "tolerance"];
    let indent = |depth: usize| "  ".repeat(depth);
    match value {
        Value::Object(map) if !map.is_empty() => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by_key(|key| (FIRST.iter().position(|first| first == key).unwrap_or(FIRST.len()), *key));
            out.push_str("{\n");
            for (i, key) in keys.iter().enumerate() {
                out.push_str(&format!("{}{}: ", indent(depth + 1), Value::String((*key).clone())));
                pretty(&map[*key], depth + 1, out);
                out.push_str(if i + 1 < keys.len() { ",\n" } else { "\n" });
            }
            out.push_str(&format!("{}}}", indent(depth)));
        }
        Value::Array(items) if items.iter().any(|item| item.is_object() || item.is_array()) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&indent(depth + 1));
                pretty(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&format!("{}]", indent(depth)));
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) | Value::Array(_) | Value::Object(_) => {
            out.push_str(&value.to_string());
        }
    }
}

/// Runs `scripts/rlpr_reference.py` (PyTorch) over both sets of cases on the fixtures.
fn pytorch() -> (Value, Vec<Value>, Vec<Value>) {
    let fixtures = fixtures();
    let (plain, cold) = inputs();
    let requests: Vec<Value> = plain
        .iter()
        .chain(&cold)
        .map(|input| {
            let mut request = input.clone();
            request["model"] = json!(if input["model"] == "llama" { &fixtures.llama } else { &fixtures.qwen });
            request
        })
        .collect();
    let dir = tempfile::tempdir().unwrap_or_else(|error| panic!("tempdir: {error}"));
    let cases_file = dir.path().join("cases.json");
    if let Err(error) = std::fs::write(&cases_file, Value::Array(requests).to_string()) {
        panic!("write cases: {error}");
    }
    let script = root().join("scripts/rlpr_reference.py");
    let out = run_python(&[path(&script), path(&cases_file)], "scripts/requirements-rlpr.txt");
    let mut out: Value = serde_json::from_slice(&out).unwrap_or_else(|error| panic!("reference output: {error}"));
    let Some(mut results) = out["results"].as_array().cloned() else { panic!("reference output has no results") };
    assert_eq!(results.len(), plain.len() + cold.len());
    let cold = results.split_off(plain.len());
    (out["versions"].take(), results, cold)
}

#[test]
fn scores_match_the_recorded_pytorch_reference() {
    let (results, _) = recorded();
    check_scores(&results, RECORDED);
}

/// RLPR's Llama and Gemma scripts compute the log-probs at their rollout temperature, 0.6: the
/// local model at that temperature agrees with PyTorch's recorded `log_softmax(logits / 0.6)`,
/// and the log-probs differ from those at temperature 1.
#[test]
fn log_probs_at_a_temperature_match_the_recorded_pytorch_reference() {
    let (_, results) = recorded();
    check_temperature(&results);
}

/// `{"torch": "2.15.0", ...}` as `torch 2.15.0, ...`.
fn named_versions(versions: &Value) -> String {
    let Some(versions) = versions.as_object() else { return "unknown versions".to_owned() };
    versions
        .iter()
        .map(|(name, version)| format!("{name} {}", version.as_str().unwrap_or("?")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// PyTorch and transformers, run now on the same fixtures, give what the recorded reference
/// holds (token ids and positions identical, values within 1e-4), and the local model agrees
/// with them directly. With `REFEREE_UPDATE_REFERENCES=1` PyTorch's output becomes the recorded
/// reference instead.
#[test]
#[ignore = "full tier (scripts/test --full): runs PyTorch (scripts/requirements-rlpr.txt)"]
fn pytorch_gives_the_recorded_reference_and_agrees_with_the_local_model() {
    let (versions, results, cold) = pytorch();
    let (plain_inputs, cold_inputs) = inputs();
    let entries = |inputs: Vec<Value>, outputs: &[Value]| -> Value {
        inputs.into_iter().zip(outputs).map(|(input, output)| json!({"input": input, "output": output})).collect()
    };
    let now = json!({
        "produced_by": {
            "command": RECORD,
            "script": "scripts/rlpr_reference.py",
            "versions": versions,
        },
        "fixtures": {
            "script": "scripts/rlpr-fixture.py",
            "args": FIXTURE_ARGS.iter().map(|(name, args)| (name.to_string(), json!(args.join(" ")))).collect::<Map<_, _>>(),
            "fingerprints": fixtures().fingerprints,
        },
        "tolerance": TOLERANCE,
        "cases": entries(plain_inputs, &results),
        "temperature_cases": entries(cold_inputs, &cold),
    });
    let file = recorded_path();
    if std::env::var_os("REFEREE_UPDATE_REFERENCES").is_some_and(|value| value == "1") {
        let mut text = String::new();
        pretty(&now, 0, &mut text);
        text.push('\n');
        if let Err(error) = std::fs::write(&file, text) {
            panic!("write {}: {error}", file.display());
        }
        println!("wrote {}", file.display());
    } else {
        let recorded: Value = serde_json::from_slice(&read(&file))
            .unwrap_or_else(|error| panic!("{}: {error}; write it again: {RECORD}", file.display()));
        let mut wrong = Vec::new();
        for key in ["fixtures", "cases", "temperature_cases"] {
            differences(key, &recorded[key], &now[key], &mut wrong);
        }
        let shown = wrong.len().min(20);
        assert!(
            wrong.is_empty(),
            "PyTorch ({}) differs from {RECORDED} (recorded with {}) in {} place(s); texts, token ids \
             and positions must be identical, values within {TOLERANCE}:\n  {}{}\nOnce the difference \
             is understood, record PyTorch's output: {RECORD}",
            named_versions(&now["produced_by"]["versions"]),
            named_versions(&recorded["produced_by"]["versions"]),
            wrong.len(),
            wrong[..shown].join("\n  "),
            if wrong.len() > shown { format!("\n  … and {} more", wrong.len() - shown) } else { String::new() },
        );
    }
    check_scores(&results, "PyTorch");
    check_temperature(&cold);
}

#[test]
fn batches_score_like_single_sequences() {
    let model = load(&fixtures().qwen);
    let texts = ["<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n 42 is it <|im_end|>", "short 7 <|im_end|>"];
    let sequences: Vec<TokenSequence> = texts
        .iter()
        .map(|text| {
            let start = text.find(char::is_numeric).unwrap_or(0);
            match model.prepare(&ScoringText { text: (*text).to_owned(), answer: start..start + 2 }) {
                Ok(sequence) => sequence,
                Err(error) => panic!("prepare: {error}"),
            }
        })
        .collect();
    let Ok(batch) = model.logprobs(&sequences) else { panic!("batch") };
    for (sequence, batched) in sequences.iter().zip(&batch) {
        let Ok(single) = model.logprobs(std::slice::from_ref(sequence)) else { panic!("single") };
        assert!(!batched.is_empty());
        assert_eq!(&single[0], batched);
    }
    // No scored position: nothing to compute.
    let empty = TokenSequence { ids: vec![1, 2, 3], positions: vec![] };
    assert_eq!(model.logprobs(&[empty]), Ok(vec![vec![]]));
}

#[test]
fn bad_inputs_and_directories_are_refused_clearly() {
    let fixtures = fixtures();
    let model = load(&fixtures.qwen);
    let vocab = model.config().vocab_size as u32;
    for (sequence, message) in [
        (TokenSequence { ids: vec![1, 2, 3], positions: vec![0] }, "ascend within 1..3"),
        (TokenSequence { ids: vec![1, 2, 3], positions: vec![2, 1] }, "ascend"),
        (TokenSequence { ids: vec![1, 2, 3], positions: vec![3] }, "ascend within 1..3"),
        (TokenSequence { ids: vec![1, vocab, 3], positions: vec![1] }, "outside the vocabulary"),
    ] {
        match model.logprobs(&[sequence]) {
            Err(error @ ModelError::Input(_)) => assert!(error.to_string().contains(message), "{error}"),
            other => panic!("expected an input error with {message:?}, got {other:?}"),
        }
    }
    let long = ScoringText { text: "a ".repeat(model.max_positions() + 1), answer: 0..1 };
    assert!(matches!(model.prepare(&long), Err(ModelError::Input(_))));
    let outside = ScoringText { text: "abc".to_owned(), answer: 2..9 };
    assert!(matches!(model.prepare(&outside), Err(ModelError::Input(_))));

    // A copy of the model with one setting or file broken at a time.
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(error) => panic!("tempdir: {error}"),
    };
    let copy = |name: &str| {
        let from = fixtures.qwen.join(name);
        if let Err(error) = std::fs::copy(&from, dir.path().join(name)) {
            panic!("copy {}: {error}", from.display());
        }
    };
    for name in ["config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"] {
        copy(name);
    }
    assert!(LocalModel::load(dir.path()).is_ok());
    let config = fixtures.qwen.join("config.json");
    let original = std::fs::read_to_string(&config).unwrap_or_default();
    for (from, to, message) in [
        (
            "\"intermediate_size\": 160",
            "\"intermediate_size\": 128",
            "mlp.gate_proj.weight has shape [160, 64], expected [128, 64]",
        ),
        ("\"num_hidden_layers\": 2", "\"num_hidden_layers\": 3", "model.layers.2.input_layernorm.weight is missing"),
        ("Qwen2ForCausalLM", "MistralForCausalLM", "unsupported architecture"),
        ("\"vocab_size\": 151936", "\"vocab_size\": 1000", "the tokenizer has"),
    ] {
        assert!(original.contains(from), "fixture config lacks {from}");
        if let Err(error) = std::fs::write(dir.path().join("config.json"), original.replace(from, to)) {
            panic!("write config: {error}");
        }
        match LocalModel::load(dir.path()) {
            Err(error) => assert!(error.to_string().contains(message), "{to}: {error}"),
            Ok(_) => panic!("{to}: loaded"),
        }
    }
}
