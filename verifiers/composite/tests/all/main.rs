//! The composite reward over the real `math` and `exact-match` verifiers: splitting, each
//! aggregate against hand-computed scores, and the item-level refusals.

use referee_composite::{CompositeInput, CompositeScorer};
use referee_core::{Budget, RewardModel, Scorer, Status, Verdict};
use referee_math::MathVerifier;
use referee_text::ExactMatch;
use serde_json::{Value, json};

fn composite() -> CompositeScorer {
    CompositeScorer::new(&[Scorer::verifier(MathVerifier::new()), Scorer::verifier(ExactMatch)])
}

async fn score(items: Vec<Value>) -> Result<Vec<Verdict>, serde_json::Error> {
    let inputs: Vec<CompositeInput> = items.into_iter().map(serde_json::from_value).collect::<Result<_, _>>()?;
    Ok(composite().score_batch(inputs, Budget::unlimited()).await)
}

fn math_parts(references: &[&str]) -> Value {
    Value::Array(references.iter().map(|r| json!({"verifier": "math", "input": {"reference": r}})).collect())
}

#[tokio::test]
async fn every_instance_must_be_solved_by_default() -> Result<(), serde_json::Error> {
    // Three instantiations of one problem (VAR-MATH): x² for x = 2, 3, 1/2.
    let parts = math_parts(&["4", "9", "1/4"]);
    let verdicts = score(vec![
        json!({"response": r"<think>...</think> \boxed{4}, \boxed{9} and \boxed{0.25}", "parts": parts}),
        json!({"response": r"\boxed{4}, \boxed{8}, \boxed{\frac{1}{4}}", "parts": parts}),
        json!({"response": r"\boxed{4}, \boxed{8}, \boxed{\frac{1}{4}}", "parts": parts, "aggregate": "mean"}),
    ])
    .await?;
    assert_eq!((verdicts[0].score, verdicts[0].status), (1.0, Status::Correct), "{:?}", verdicts[0]);
    assert_eq!((verdicts[1].score, verdicts[1].status), (0.0, Status::Incorrect), "{:?}", verdicts[1]);
    assert!((verdicts[2].score - 2.0 / 3.0).abs() < 1e-12, "{:?}", verdicts[2]);
    assert_eq!(verdicts[2].status, Status::Partial);
    let shown = &verdicts[1].details["parts"];
    assert_eq!(shown[1]["answer"], "8");
    assert_eq!(shown[1]["status"], "incorrect");
    assert_eq!(verdicts[1].details["found"], 3);
    Ok(())
}

#[tokio::test]
async fn weights_and_missing_answers() -> Result<(), serde_json::Error> {
    let parts = json!([
        {"verifier": "math", "input": {"reference": "12"}, "weight": 3},
        {"verifier": "exact-match", "input": {"reference": "Paris"}, "weight": 1},
        {"verifier": "math", "input": {"reference": "7"}}
    ]);
    let verdicts = score(vec![
        // Parts 1 and 2 right, part 3 missing: (3·1 + 1·1 + 1·0) / 5.
        json!({"response": "1. 12\n2) Paris", "parts": parts, "split": "numbered", "aggregate": "weighted"}),
        json!({"response": "1. 12\n2) Paris", "parts": parts, "split": "numbered"}),
        json!({"response": "nothing numbered", "parts": parts, "split": "numbered", "aggregate": "mean"}),
    ])
    .await?;
    assert!((verdicts[0].score - 0.8).abs() < 1e-12, "{:?}", verdicts[0]);
    assert_eq!(verdicts[0].status, Status::Partial);
    let third = &verdicts[0].details["parts"][2];
    assert_eq!((third["status"].as_str(), third["answer"].is_null()), (Some("unparseable"), true));
    assert_eq!((verdicts[1].score, verdicts[1].status), (0.0, Status::Incorrect));
    assert_eq!((verdicts[2].score, verdicts[2].status), (0.0, Status::Unparseable));
    Ok(())
}

#[tokio::test]
async fn other_split_rules() -> Result<(), serde_json::Error> {
    let parts = math_parts(&["2", "3"]);
    let verdicts = score(vec![
        json!({"response": "<answer>2</answer> <answer>3</answer>", "parts": parts, "split": "answer_tags"}),
        json!({"response": "Answers: [2, \"3\"]", "parts": parts, "split": "json"}),
        json!({"response": "So:\n2\n3", "parts": parts, "split": "lines"}),
    ])
    .await?;
    for verdict in &verdicts {
        assert_eq!(verdict.status, Status::Correct, "{verdict:?}");
    }
    Ok(())
}

#[tokio::test]
async fn items_that_cannot_be_scored_say_why() -> Result<(), serde_json::Error> {
    let too_many = math_parts(&["1"; 65]);
    let cases = [
        (json!({"response": "x", "parts": []}), "1 to 64"),
        (json!({"response": "x", "parts": too_many}), "1 to 64"),
        (json!({"response": "x", "parts": [{"verifier": "nope"}]}), "unknown verifier `nope`"),
        (json!({"response": "x", "parts": [{"verifier": "rubric"}]}), "cannot check a part"),
        (json!({"response": "x", "parts": [{"verifier": "composite"}]}), "cannot check a part"),
        (json!({"response": "x", "parts": [{"verifier": "math", "input": {"response": "4"}}]}), "input.response"),
        (json!({"response": "x", "parts": [{"verifier": "math", "weight": -1}]}), "weight"),
        (json!({"response": "x", "parts": [{"verifier": "math", "weight": 0}], "aggregate": "weighted"}), "positive"),
        // The part's own scorer refuses its input: the item is invalid and names the part.
        (json!({"response": r"\boxed{4}", "parts": [{"verifier": "math", "input": {}}]}), "part 1 (`math`)"),
    ];
    let verdicts = score(cases.iter().map(|(item, _)| item.clone()).collect()).await?;
    for ((item, expected), verdict) in cases.iter().zip(&verdicts) {
        assert_eq!(verdict.status, Status::InvalidInput, "{item}: {verdict:?}");
        let error = verdict.details["error"].as_str().unwrap_or_default();
        assert!(error.contains(expected), "{item}: {error}");
    }
    Ok(())
}
