//! The public API as the server will use it: catalogue, generation, the `np` verifier.

use referee_core::{Budget, ErasedVerifier, Status, Verifier};
use referee_np::{InstancesRequest, NpError, NpVerifier, catalogue, generate, generate_instances};
use serde_json::{Value, json};

fn score(verifier: &NpVerifier, item: Value) -> referee_core::Verdict {
    verifier.verify_json(&[item], &Budget::unlimited()).remove(0)
}

#[test]
fn catalogue_lists_every_task_with_levels_and_format() {
    let tasks: Vec<&str> = catalogue().iter().map(|t| t.task.as_str()).collect();
    for expected in [
        "tsp",
        "hamiltonian_cycle",
        "graph_coloring",
        "max_clique",
        "max_independent_set",
        "min_vertex_cover",
        "max_cut",
        "min_bisection",
        "knapsack",
        "subset_sum",
        "number_partition",
        "bin_packing",
        "set_cover",
        "exact_cover",
        "dominating_set",
        "max_sat",
        "sat",
        "job_shop",
        "parallel_machines",
        "cvrp",
        "steiner_tree",
        "facility_location",
        "n_queens",
        "sudoku",
        "meeting_schedule",
        "countdown",
        "futoshiki",
    ] {
        assert!(tasks.contains(&expected), "{expected} missing from {tasks:?}");
    }
    let mut unique = tasks.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), tasks.len());
    for task in catalogue() {
        assert!(!task.answer_format.is_empty() && !task.summary.is_empty());
        let levels: Vec<u8> = task.levels.iter().map(|l| l.level).collect();
        assert_eq!(levels, (1..=levels.len() as u8).collect::<Vec<_>>(), "{}", task.task);
        assert!(task.generator_version >= 1);
    }
    let json = serde_json::to_value(catalogue()).unwrap_or_default();
    assert!(json.as_array().is_some_and(|a| a.len() == tasks.len()));
}

#[test]
fn generation_is_reproducible_and_bounded() {
    let request = InstancesRequest { level: 1, seed: 41, count: 3 };
    let batch = generate_instances("knapsack", &request).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(batch.instances.len(), 3);
    assert_eq!(Some(&batch.instances[1]), generate("knapsack", 1, 42).ok().as_ref());
    assert_ne!(batch.instances[0].instance, batch.instances[1].instance);
    assert!(matches!(generate("nope", 1, 0), Err(NpError::UnknownTask(_))));
    assert!(matches!(generate("tsp", 9, 0), Err(NpError::UnknownLevel { .. })));
    let too_many = InstancesRequest { count: 10_000, ..request };
    assert!(matches!(generate_instances("tsp", &too_many), Err(NpError::BadCount { .. })));
    let none = InstancesRequest { count: 0, ..request };
    assert!(matches!(generate_instances("tsp", &none), Err(NpError::BadCount { .. })));
    let body: InstancesRequest = serde_json::from_value(json!({ "level": 2, "seed": 5 })).unwrap_or(request);
    assert_eq!(body.count, 1);
}

#[test]
fn verifier_scores_by_seed_and_inline_with_every_mode() {
    let verifier = NpVerifier::new();
    assert_eq!(verifier.description().id, "np");
    let g = generate("tsp", 2, 3).unwrap_or_else(|e| panic!("{e}"));
    let answer = format!("<think>try a few tours</think>The best tour is\nAnswer: {}", g.reference.answer);
    let by_seed = score(&verifier, json!({ "task": "tsp", "level": 2, "seed": 3, "response": answer }));
    assert_eq!(by_seed.status, Status::Correct);
    assert!((by_seed.score - 1.1).abs() < 1e-9);
    for key in [
        "feasible",
        "objective",
        "reference_objective",
        "reference_kind",
        "ratio",
        "gap_closed",
        "region_rule",
        "parse_rule",
    ] {
        assert!(by_seed.details.contains_key(key), "missing {key}");
    }
    let inline = score(
        &verifier,
        json!({ "task": "tsp", "instance": g.instance, "reference": g.reference, "response": answer }),
    );
    assert_eq!(inline.score, by_seed.score);
    let forge =
        score(&verifier, json!({ "task": "tsp", "level": 2, "seed": 3, "response": answer, "reward_mode": "forge" }));
    assert!((forge.score - 2.0).abs() < 1e-9);
    let binary =
        score(&verifier, json!({ "task": "tsp", "level": 2, "seed": 3, "response": answer, "reward_mode": "binary" }));
    assert_eq!(binary.score, 1.0);
    let ratio =
        score(&verifier, json!({ "task": "tsp", "level": 2, "seed": 3, "response": answer, "reward_mode": "ratio" }));
    assert_eq!(ratio.score, 1.0);

    // The baseline tour (index order) is feasible and earns the floor of the quality reward.
    let n = g.instance["n"].as_u64().unwrap_or(0);
    let identity: Vec<u64> = (0..n).collect();
    let baseline =
        score(&verifier, json!({ "task": "tsp", "level": 2, "seed": 3, "response": format!("Answer: {identity:?}") }));
    assert_eq!(baseline.status, Status::Partial);
    assert!(baseline.score >= 0.3 && baseline.score < 1.0, "{baseline:?}");

    let infeasible = score(&verifier, json!({ "task": "tsp", "level": 2, "seed": 3, "response": "Answer: [0, 0, 1]" }));
    assert_eq!(infeasible.status, Status::Incorrect);
    assert!((infeasible.score - 0.1).abs() < 1e-9);
    assert_eq!(infeasible.details["error"]["kind"], "wrong_length");
    let custom = score(
        &verifier,
        json!({ "task": "tsp", "level": 2, "seed": 3, "response": "Answer: [0, 0, 1]", "infeasible_reward": 0.0 }),
    );
    assert_eq!(custom.score, 0.0);
    let unparsable = score(&verifier, json!({ "task": "tsp", "level": 2, "seed": 3, "response": "I give up" }));
    assert_eq!(unparsable.status, Status::Unparseable);
    assert_eq!(unparsable.score, 0.0);
    let strict = score(
        &verifier,
        json!({ "task": "tsp", "level": 2, "seed": 3, "response": g.reference.answer, "strict": true }),
    );
    assert_eq!(strict.details["error"]["kind"], "no_answer");
}

#[test]
fn bad_items_are_invalid_input_not_failures_of_the_batch() {
    let verifier = NpVerifier::new();
    let items = vec![
        json!({ "task": "nope", "level": 1, "seed": 1, "response": "" }),
        json!({ "task": "tsp", "response": "Answer: [0]" }),
        json!({ "task": "tsp", "level": 7, "seed": 1, "response": "" }),
        json!({ "task": "tsp", "instance": { "n": 3, "distances": [[0, 1], [1, 0]] }, "response": "" }),
        json!({ "task": "tsp", "level": 1, "seed": 1, "response": "", "reward_mode": "bogus" }),
        json!({ "task": "tsp", "level": 1, "seed": 1, "response": "", "infeasible_reward": 3.0 }),
        json!({ "task": "knapsack", "level": 1, "seed": 1, "response": "Answer: []" }),
    ];
    let verdicts = verifier.verify_json(&items, &Budget::unlimited());
    assert_eq!(verdicts.len(), items.len());
    for v in &verdicts[..6] {
        assert_eq!(v.status, Status::InvalidInput, "{v:?}");
    }
    assert_eq!(verdicts[6].status, Status::Partial);
}

#[test]
fn batches_run_in_parallel_and_match_single_items() {
    let verifier = NpVerifier::new();
    let items: Vec<Value> = (0..40)
        .map(|seed| {
            let g = generate("max_independent_set", 1, seed).unwrap_or_else(|e| panic!("{e}"));
            json!({ "task": "max_independent_set", "level": 1, "seed": seed, "response": format!("Answer: {}", g.reference.answer) })
        })
        .collect();
    let verdicts = verifier.verify_json(&items, &Budget::unlimited());
    assert!(verdicts.iter().all(|v| v.status == Status::Correct));
    assert_eq!(verdicts[7], score(&verifier, items[7].clone()));
}

#[test]
fn every_task_generates_and_verifies_its_reference_across_seeds() {
    // Seeds away from the ones the unit tests use, at every level: generation terminates and
    // the reference answer scores as correct through the verifier.
    let verifier = NpVerifier::new();
    for task in catalogue() {
        for level in &task.levels {
            for seed in 1000..1006u64 {
                let g = generate(&task.task, level.level, seed).unwrap_or_else(|e| panic!("{e}"));
                let v = score(
                    &verifier,
                    json!({ "task": task.task, "level": level.level, "seed": seed, "response": format!("Answer: {}", g.reference.answer) }),
                );
                assert_eq!(v.status, Status::Correct, "{} level {} seed {seed}: {v:?}", task.task, level.level);
            }
        }
    }
}
