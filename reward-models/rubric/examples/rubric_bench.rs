//! Benchmarks of the `rubric` reward model, for `docs/benchmarks.md`.
//!
//! - `rules CASES.jsonl [ITEMS]`: writes ITEMS generated responses with references and the
//!   rule-only benchmark rubric to CASES.jsonl (with Rust's scores, for `bench/rubric/compare.py`
//!   to check its own against), then times `score_batch` on them: best of 5 runs, items/s. The
//!   rayon pool's size follows `RAYON_NUM_THREADS`.
//! - `judge [CALLS]`: starts an OpenAI-compatible judge on loopback that answers at once, then
//!   times CALLS principle criteria scored one at a time through the judge client, against CALLS
//!   bare HTTP round trips with the same body to the same server. The difference per call is the
//!   client's overhead: prompt, request body, hashing, concurrency permit, response parsing,
//!   P(yes) and aggregation.

use std::io::Write as _;
use std::time::{Duration, Instant};

use referee_core::{Budget, RewardModel, Verdict};
use referee_rubric::{Backing, JudgeClient, JudgeConfig, RubricDefinition, RubricInput, RubricScorer, VerifierSet};
use serde_json::{Value, json};

const TOPICS: [&str; 6] = ["light", "chlorophyll", "glucose", "oxygen", "water", "carbon dioxide"];
const SENTENCES: [&str; 12] = [
    "Plants capture light with chlorophyll in their leaves.",
    "The energy splits water and releases oxygen into the air.",
    "Carbon dioxide is fixed into glucose in the Calvin cycle.",
    "In 1779 Jan Ingenhousz showed that light is essential.",
    "Sorry, I am not sure about the exact numbers here.",
    "Most of the glucose is stored as starch for the night.",
    "Photosynthesis feeds almost every food chain on Earth.",
    "The stomata open to let carbon dioxide in and water vapour out.",
    "Die Pflanzen nutzen das Licht, und das ist nicht alles.",
    "Algae in the ocean produce about half of the oxygen we breathe.",
    "As an AI, I cannot observe a leaf, but the process is well studied.",
    "Temperature and light intensity both limit the rate.",
];

/// A small deterministic generator, so both languages see the same cases.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % bound as u64) as usize
    }
}

fn response(rng: &mut Lcg) -> String {
    if rng.next(10) == 0 {
        let topic = TOPICS[rng.next(TOPICS.len())];
        return if rng.next(2) == 0 {
            json!({"topic": topic, "steps": rng.next(9) + 1, "summary": "light to glucose"}).to_string()
        } else {
            format!("```json\n{{\"topic\": \"{topic}\", \"steps\": \"many\"}}\n```")
        };
    }
    let mut out = String::new();
    if rng.next(3) > 0 {
        out.push_str("# Photosynthesis\n\n");
    }
    for _ in 0..(4 + rng.next(8)) {
        out.push_str(SENTENCES[rng.next(SENTENCES.len())]);
        out.push(' ');
    }
    if rng.next(2) == 0 {
        out.push_str("\n\n- light reactions\n- Calvin cycle\n");
    }
    if rng.next(2) == 0 {
        out.push_str("\n## Conclusion\nPlants turn light into chemical energy.\n");
    }
    out
}

fn rule_rubric() -> Value {
    json!({"criteria": [
        {"name": "title", "kind": {"type": "format", "format": "heading"}},
        {"name": "bullets", "kind": {"type": "format", "format": "bullet_list"}},
        {"name": "conclusion", "kind": {"type": "section", "heading": "Conclusion"}},
        {"name": "no_apology", "veto": true,
            "kind": {"type": "regex", "pattern": "(?i)\\b(sorry|as an ai)\\b", "absent": true}},
        {"name": "year", "kind": {"type": "regex", "pattern": "\\b(1[0-9]|20)[0-9][0-9]\\b"}},
        {"name": "terms", "weight": 2, "kind": {"type": "keywords", "keywords": TOPICS}},
        {"name": "words", "kind": {"type": "length", "unit": "words", "min": 40, "max": 200}},
        {"name": "chars", "kind": {"type": "length", "unit": "chars", "max": 1200}},
        {"name": "tokens", "kind": {"type": "length", "unit": "tokens", "min": 60}},
        {"name": "english", "kind": {"type": "language", "language": "en"}},
        {"name": "json", "weight": 0.5, "kind": {"type": "valid_json"}},
        {"name": "schema", "weight": 0.5, "kind": {"type": "json_schema", "schema": {
            "type": "object", "required": ["topic", "steps"], "additionalProperties": false,
            "properties": {"topic": {"enum": TOPICS}, "steps": {"type": "integer", "minimum": 1, "maximum": 9},
                           "summary": {"type": "string", "maxLength": 40}}}}},
        {"name": "bleu", "kind": {"type": "similarity", "metric": "bleu"}},
        {"name": "rouge", "kind": {"type": "similarity", "metric": "rouge_l"}},
        {"name": "fuzzy", "kind": {"type": "similarity", "metric": "fuzzy_ratio",
            "reference": "Plants turn light into chemical energy."}}
    ]})
}

fn scorer(judge: JudgeClient) -> RubricScorer {
    RubricScorer::new(VerifierSet::default(), judge, Backing::default())
}

fn inputs_from(cases: &[(String, String)], rubric: &RubricDefinition) -> Vec<RubricInput> {
    cases
        .iter()
        .map(|(response, reference)| RubricInput {
            response: response.clone(),
            prompt: None,
            reference: Some(reference.clone()),
            rubric: Some(rubric.clone()),
            rubric_id: None,
            rubric_version: None,
        })
        .collect()
}

async fn rules(path: &str, count: usize) -> anyhow::Result<()> {
    let mut rng = Lcg(20261121);
    let reference = "Plants use light and chlorophyll to turn water and carbon dioxide into glucose and oxygen.";
    let cases: Vec<(String, String)> = (0..count).map(|_| (response(&mut rng), reference.to_owned())).collect();
    let rubric_json = rule_rubric();
    let rubric: RubricDefinition = serde_json::from_value(rubric_json.clone())?;
    let scorer = scorer(JudgeClient::unconfigured());

    let verdicts = scorer.score_batch(inputs_from(&cases, &rubric), Budget::unlimited()).await;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "{}", json!({"rubric": rubric_json}))?;
    for ((response, reference), verdict) in cases.iter().zip(&verdicts) {
        let criteria: Vec<Value> = verdict.details["criteria"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| json!([c["name"], c["score"]]))
            .collect();
        writeln!(
            out,
            "{}",
            json!({"response": response, "reference": reference, "score": verdict.score, "criteria": criteria})
        )?;
    }
    out.flush()?;

    let mut best = Duration::MAX;
    for _ in 0..5 {
        let inputs = inputs_from(&cases, &rubric);
        let started = Instant::now();
        let verdicts: Vec<Verdict> = scorer.score_batch(inputs, Budget::unlimited()).await;
        best = best.min(started.elapsed());
        anyhow::ensure!(verdicts.len() == count);
    }
    let threads = std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "all".to_owned());
    println!(
        "{}",
        json!({"bench": "rules", "items": count, "criteria": 15, "rayon_threads": threads,
               "seconds": best.as_secs_f64(), "items_per_s": count as f64 / best.as_secs_f64()})
    );
    Ok(())
}

async fn instant_judge(_body: axum::Json<Value>) -> axum::Json<Value> {
    axum::Json(json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": "Yes"},
        "logprobs": {"content": [{"token": "Yes", "logprob": -0.105,
            "top_logprobs": [{"token": "Yes", "logprob": -0.105}, {"token": "No", "logprob": -2.303}]}]}}]}))
}

async fn judge(calls: usize) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let app = axum::Router::new().route("/v1/chat/completions", axum::routing::post(instant_judge));
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let config = JudgeConfig {
        base_url: Some(format!("http://{addr}/v1")),
        model: "bench".to_owned(),
        cache: false,
        ..JudgeConfig::default()
    };
    let scorer = scorer(JudgeClient::new(config, Backing::default()).map_err(anyhow::Error::msg)?);
    let rubric: RubricDefinition = serde_json::from_value(json!({"criteria": [
        {"name": "helpful", "description": "The response answers the question directly.", "kind": {"type": "principle"}}
    ]}))?;
    let input = |i: usize| RubricInput {
        response: format!("Response number {i}: plants turn light into chemical energy."),
        prompt: Some("Explain photosynthesis in one sentence.".to_owned()),
        reference: None,
        rubric: Some(rubric.clone()),
        rubric_id: None,
        rubric_version: None,
    };
    let http = reqwest::Client::new();
    let url = format!("http://{addr}/v1/chat/completions");
    let body = json!({"model": "bench", "messages": [{"role": "user", "content": "x".repeat(400)}],
        "temperature": 0.0, "max_tokens": 1024, "logprobs": true, "top_logprobs": 5});
    // Warm both paths (connections, allocator).
    for i in 0..200 {
        scorer.score_batch(vec![input(i)], Budget::unlimited()).await;
        http.post(&url).json(&body).send().await?.text().await?;
    }
    let mut rubric_best = Duration::MAX;
    let mut bare_best = Duration::MAX;
    for _ in 0..3 {
        let started = Instant::now();
        for i in 0..calls {
            let verdicts = scorer.score_batch(vec![input(i)], Budget::unlimited()).await;
            anyhow::ensure!((verdicts[0].score - 0.9).abs() < 0.01, "{:?}", verdicts[0]);
        }
        rubric_best = rubric_best.min(started.elapsed());
        let started = Instant::now();
        for _ in 0..calls {
            let text = http.post(&url).json(&body).send().await?.text().await?;
            let _: Value = serde_json::from_str(&text)?;
        }
        bare_best = bare_best.min(started.elapsed());
    }
    let per = |d: Duration| d.as_secs_f64() * 1e6 / calls as f64;
    println!(
        "{}",
        json!({"bench": "judge", "calls": calls, "rubric_item_us": per(rubric_best), "bare_round_trip_us": per(bare_best),
               "overhead_us": per(rubric_best) - per(bare_best)})
    );
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("rules") => {
            let path = args.get(1).map_or("rubric_cases.jsonl", String::as_str);
            let count = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(20_000);
            rules(path, count).await
        }
        Some("judge") => judge(args.get(1).and_then(|n| n.parse().ok()).unwrap_or(2_000)).await,
        _ => anyhow::bail!("usage: rubric_bench rules CASES.jsonl [ITEMS] | rubric_bench judge [CALLS]"),
    }
}
