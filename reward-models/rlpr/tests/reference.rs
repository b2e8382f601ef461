//! The local model against an independent reference: `scripts/rlpr_reference.py` (PyTorch and
//! transformers on CPU, with its own port of the RLPR text rules) scores the same cases on the
//! same seeded random Qwen2- and Llama-shaped models (`scripts/rlpr-fixture.py`, with Qwen2.5's
//! real tokenizer). Token ids and scored positions must be identical, and every log-prob,
//! score and reward must agree within 1e-4.
//!
//! Needs a Python with `scripts/requirements-rlpr.txt`: `REFEREE_PYTHON`, or the repository's
//! `.venv/bin/python` (which `scripts/test` sets up). Without one the tests fail, by design.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use referee_rlpr::{
    ChatMessage, FormatMode, LocalModel, ModelError, RewardOptions, ScoreKind, ScoringText, TokenSequence, baseline,
    substitute,
};
use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python() -> PathBuf {
    let python =
        std::env::var_os("REFEREE_PYTHON").map(PathBuf::from).unwrap_or_else(|| root().join(".venv/bin/python"));
    assert!(
        python.exists(),
        "no Python at {} for the RLPR reference: set REFEREE_PYTHON or create .venv with \
         `pip install -r scripts/requirements-rlpr.txt` (scripts/test does)",
        python.display()
    );
    python
}

fn run_python(args: &[&str]) -> Vec<u8> {
    let output = match Command::new(python()).args(args).output() {
        Ok(output) => output,
        Err(error) => panic!("cannot run {}: {error}", python().display()),
    };
    assert!(
        output.status.success(),
        "{args:?} failed (does the Python have scripts/requirements-rlpr.txt?):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

struct Fixtures {
    qwen: PathBuf,
    llama: PathBuf,
}

/// The two seeded models, written (again) once per test process; the seeds make them the same
/// each time.
fn fixtures() -> &'static Fixtures {
    static FIXTURES: OnceLock<Fixtures> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rlpr-fixtures");
        let script = root().join("scripts/rlpr-fixture.py");
        let script = script.to_str().unwrap_or_else(|| panic!("non-UTF-8 path"));
        let (qwen, llama) = (base.join("qwen2"), base.join("llama"));
        let path = |p: &Path| p.to_str().unwrap_or_else(|| panic!("non-UTF-8 path")).to_owned();
        run_python(&[script, &path(&qwen), "--arch", "qwen2", "--seed", "7"]);
        let tokenizer = path(&qwen.join("tokenizer.json"));
        run_python(&[
            script,
            &path(&llama),
            "--arch",
            "llama",
            "--seed",
            "11",
            "--shards",
            "2",
            "--tokenizer-from",
            &tokenizer,
        ]);
        Fixtures { qwen, llama }
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

fn close(ours: f64, theirs: f64, what: &str) {
    assert!((ours - theirs).abs() <= 1e-4, "{what}: {ours} vs reference {theirs}");
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

#[test]
fn scores_match_pytorch_and_transformers() {
    let fixtures = fixtures();
    let (qwen, llama) = (load(&fixtures.qwen), load(&fixtures.llama));
    let cases = cases();
    let requests: Vec<Value> = cases
        .iter()
        .map(|case| {
            json!({
                "model": if case.llama { &fixtures.llama } else { &fixtures.qwen },
                "messages": case.messages.iter().map(|(role, content)| json!({"role": role, "content": content})).collect::<Vec<_>>(),
                "response": case.response,
                "reference": case.reference,
                "format_mode": case.mode,
            })
        })
        .collect();
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(error) => panic!("tempdir: {error}"),
    };
    let cases_file = dir.path().join("cases.json");
    if let Err(error) = std::fs::write(&cases_file, Value::Array(requests).to_string()) {
        panic!("write cases: {error}");
    }
    let script = root().join("scripts/rlpr_reference.py");
    let out = run_python(&[script.to_str().unwrap_or_default(), cases_file.to_str().unwrap_or_default()]);
    let out: Value = match serde_json::from_slice(&out) {
        Ok(out) => out,
        Err(error) => panic!("reference output: {error}"),
    };
    let Some(results) = out["results"].as_array() else { panic!("reference output has no results") };
    assert_eq!(results.len(), cases.len());

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

/// RLPR's Llama and Gemma scripts compute the log-probs at their rollout temperature, 0.6: the
/// local model at that temperature agrees with PyTorch's `log_softmax(logits / 0.6)`, and the
/// log-probs differ from those at temperature 1.
#[test]
fn log_probs_at_a_temperature_match_pytorch() {
    let fixtures = fixtures();
    let temperature = 0.6f32;
    let models = [(false, &fixtures.qwen), (true, &fixtures.llama)];
    let (response, reference) = ("<think>7 × 6 = 42</think> so <answer>41</answer>", "42 apples");
    let requests: Vec<Value> = models
        .iter()
        .map(|(llama, dir)| {
            json!({"model": dir, "messages": [{"role": "user", "content": "What is 7 × 6?"}], "response": response,
                   "reference": reference, "format_mode": if *llama { FormatMode::R1Nothink } else { FormatMode::R1 },
                   "temperature": temperature})
        })
        .collect();
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(error) => panic!("tempdir: {error}"),
    };
    let cases_file = dir.path().join("cases.json");
    if let Err(error) = std::fs::write(&cases_file, Value::Array(requests).to_string()) {
        panic!("write cases: {error}");
    }
    let script = root().join("scripts/rlpr_reference.py");
    let out = run_python(&[script.to_str().unwrap_or_default(), cases_file.to_str().unwrap_or_default()]);
    let out: Value = serde_json::from_slice(&out).unwrap_or_else(|error| panic!("reference output: {error}"));
    let Some(results) = out["results"].as_array() else { panic!("reference output has no results") };
    for ((llama, dir), theirs) in models.iter().zip(results) {
        let name = if *llama { "llama at 0.6" } else { "qwen2 at 0.6" };
        let warm = load(dir);
        let cold = match load(dir).with_temperature(temperature) {
            Ok(model) => model,
            Err(error) => panic!("{name}: {error}"),
        };
        let Some(prompt) = theirs["prompt"].as_str() else { panic!("{name}: no prompt") };
        let mode = if *llama { FormatMode::R1Nothink } else { FormatMode::R1 };
        let eos = cold.tokenizer().eos_token();
        let Some(sub) = substitute(response, reference, eos, mode) else { panic!("{name}: structured response") };
        let text = ScoringText {
            text: format!("{prompt}{}", sub.text),
            answer: prompt.len() + sub.answer.start..prompt.len() + sub.answer.end,
        };
        let ours = score(&cold, text.clone());
        compare_text(&format!("{name}, with reasoning"), &ours, &theirs["with_reasoning"]);
        let base = baseline(prompt, reference, eos);
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
