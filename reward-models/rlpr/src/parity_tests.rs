//! The `rlpr` reward model against the reference implementation's behaviour in model mode:
//! blank answers scored, the first checkpoint's baseline kept.

use std::sync::atomic::{AtomicU64, Ordering};

use futures::FutureExt;
use futures::future::BoxFuture;

use referee_core::{Budget, Status, Verdict};
use serde_json::Value;

use crate::{LogprobSource, RlprInput, RlprModel, ScoringText, SourceError};
use std::sync::{Arc, Mutex};

/// Scores every answer token at −1 and records the texts.
#[derive(Debug, Default)]
struct Recorder {
    sent: Mutex<Vec<String>>,
    generation: AtomicU64,
}

impl LogprobSource for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }

    fn eos(&self) -> &str {
        "<eos>"
    }

    fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    fn logprobs(&self, batch: Vec<ScoringText>) -> BoxFuture<'static, Vec<Result<Vec<f64>, SourceError>>> {
        if let Ok(mut sent) = self.sent.lock() {
            sent.extend(batch.iter().map(|t| t.text.clone()));
        }
        std::future::ready(batch.iter().map(|t| Ok(vec![-1.0; t.answer.len()])).collect()).boxed()
    }
}

fn run(model: &RlprModel, items: Vec<Value>) -> Vec<Verdict> {
    let inputs: Vec<RlprInput> = items.into_iter().filter_map(|v| serde_json::from_value(v).ok()).collect();
    model.score(inputs, Budget::unlimited()).now_or_never().unwrap_or_default()
}

#[test]
fn blank_answers_are_scored_with_the_reference_substituted_as_the_reference_does() {
    let source = Arc::new(Recorder::default());
    let model = RlprModel::new(Some(source.clone() as Arc<dyn LogprobSource>), 16);
    let item = |response: &str, blank: bool| {
        serde_json::json!({"response": response, "prompt": "Q:", "reference": "42",
            "options": {"score_blank_answers": blank, "debias": false, "round_bf16": false}})
    };
    let verdicts = run(
        &model,
        vec![
            item("<think>a</think><answer>  </answer>", true),
            item("<think>a</think><answer>", true),
            item("<think>a</think><answer>  </answer>", false),
        ],
    );
    let sent = source.sent.lock().map(|s| s.clone()).unwrap_or_default();
    assert_eq!(sent, ["Q:<think>a</think><answer>  42 </answer><eos>", "Q:<think>a</think><answer> 42 </answer><eos>"]);
    // mean prob e^−1; the closed blank answer keeps its format term, the truncated one not.
    let p = (-1.0f64).exp();
    assert_eq!(verdicts[0].status, Status::Partial);
    assert!((verdicts[0].score - (0.9 * p + 0.1)).abs() < 1e-12, "{:?}", verdicts[0]);
    assert!((verdicts[1].score - 0.9 * p).abs() < 1e-12, "{:?}", verdicts[1]);
    assert_eq!((verdicts[2].status, verdicts[2].score), (Status::Unparseable, 0.1));
}

#[test]
fn the_baseline_of_the_first_checkpoint_is_kept_across_reloads() {
    let source = Arc::new(Recorder::default());
    let model = RlprModel::new(Some(source.clone() as Arc<dyn LogprobSource>), 16);
    let item = |checkpoint: &str| {
        serde_json::json!({"response": "<think>a</think><answer>1</answer>", "prompt": "Q:", "reference": "42",
            "options": {"baseline_checkpoint": checkpoint}})
    };
    let baselines =
        || source.sent.lock().map(|s| s.iter().filter(|t| t.as_str() == "Q: 42 <eos>").count()).unwrap_or(usize::MAX);
    run(&model, vec![item("first")]);
    assert_eq!(baselines(), 1);
    source.generation.store(1, Ordering::SeqCst); // a reload
    run(&model, vec![item("first")]);
    assert_eq!(baselines(), 1, "the first checkpoint's baseline is kept");
    run(&model, vec![item("current"), item("current")]);
    assert_eq!(baselines(), 2, "`current` scores it again under the new checkpoint, once");
}
