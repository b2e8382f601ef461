//! The property checks every task runs: generated references verify and reproduce, mutations
//! fail with the right error, the exact solver agrees with brute force, heuristics never beat
//! exact optima.

use referee_core::Status;
use serde_json::json;

use crate::catalogue::generate;
use crate::reward::RewardMode;
use crate::rng::Rng;
use crate::task::{Problem, check};
use crate::verifier::{NpInput, NpVerifier};
use crate::violation::ErrorKind;

/// Test-only hooks of a task.
pub(crate) trait Testable: Problem {
    /// A small random instance where brute force is cheap (not necessarily planted).
    fn tiny(rng: &mut Rng) -> Self::Instance;
    /// The optimum objective by exhaustive enumeration.
    fn brute_force(instance: &Self::Instance) -> i64;
    /// The exact solver's solution; must be optimal on `tiny` instances.
    fn exact(instance: &Self::Instance) -> Self::Solution;
    /// The heuristic solver's solution.
    fn heuristic(instance: &Self::Instance) -> Self::Solution;
    /// Answer texts derived from a feasible solution, each with the error it must raise.
    fn mutations(instance: &Self::Instance, solution: &Self::Solution, rng: &mut Rng) -> Vec<(String, ErrorKind)>;
}

fn objective<P: Testable>(instance: &P::Instance, solution: &P::Solution, what: &str) -> i64 {
    match P::objective(instance, solution) {
        Ok(v) => v,
        Err(e) => panic!("{} {what} solution is infeasible: {e:?}", P::NAME),
    }
}

/// Generated instances at every level: reproducible, reference verifies through the full text
/// path and the `np` verifier, bounds hold, heuristics and baselines are feasible and no better
/// than proven references, and mutations of the reference fail with the expected error.
pub(crate) fn check_generated<P: Testable>(seeds_per_level: u64) {
    let verifier = NpVerifier::new();
    let mut rng = Rng::from_seed(99);
    for spec in P::LEVELS {
        for seed in 0..seeds_per_level {
            let g = generate(P::NAME, spec.level, seed).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(generate(P::NAME, spec.level, seed).ok().as_ref(), Some(&g), "{} is not reproducible", P::NAME);
            assert!(g.prompt.contains("Answer:"));
            let instance: P::Instance = serde_json::from_value(g.instance.clone()).unwrap_or_else(|e| panic!("{e}"));
            P::validate(&instance).unwrap_or_else(|e| panic!("{} level {} seed {seed}: {e}", P::NAME, spec.level));
            let r = &g.reference;
            let checked = check::<P>(&instance, &format!("<think>x</think>Answer: {}", r.answer), true);
            let (solution, obj) = checked.result.unwrap_or_else(|e| panic!("{} reference fails: {e:?}", P::NAME));
            assert_eq!(obj, r.objective);
            assert_eq!(P::canonical(&instance, &solution), r.solution);
            if let Some(bound) = r.bound {
                assert!(P::DIRECTION.at_least_as_good(bound, obj), "{} bound {bound} vs {obj}", P::NAME);
            }
            let heuristic = objective::<P>(&instance, &P::heuristic(&instance), "heuristic");
            let baseline = objective::<P>(&instance, &P::baseline(&instance), "baseline");
            assert_eq!(baseline, r.baseline_objective);
            if r.kind.proven() {
                assert!(P::DIRECTION.at_least_as_good(obj, heuristic), "{} heuristic {heuristic} beats {obj}", P::NAME);
                assert!(P::DIRECTION.at_least_as_good(obj, baseline));
            }
            for (mode, strict) in [(RewardMode::Quality, false), (RewardMode::Binary, true)] {
                let by_seed = NpInput {
                    task: P::NAME.into(),
                    instance: None,
                    reference: None,
                    level: Some(spec.level),
                    seed: Some(seed),
                    response: format!("Answer: {}", r.answer),
                    reward_mode: mode,
                    strict,
                    infeasible_reward: None,
                };
                let v = verifier.verify_one(&by_seed);
                assert_eq!(v.status, Status::Correct, "{v:?}");
                let expected = match (mode, r.kind.proven()) {
                    (RewardMode::Quality, true) => 1.1,
                    _ => 1.0,
                };
                assert!((v.score - expected).abs() < 1e-9, "{} {v:?}", P::NAME);
                let inline = NpInput {
                    instance: Some(g.instance.clone()),
                    reference: Some(g.reference.clone()),
                    level: None,
                    seed: None,
                    ..by_seed
                };
                assert_eq!(verifier.verify_one(&inline).score, v.score);
                // Without the stored reference the verifier re-solves, possibly less strongly
                // (no planted solution), so the reference answer is still at least as good.
                let unreferenced = NpInput { reference: None, ..inline };
                let v = verifier.verify_one(&unreferenced);
                assert_eq!(v.status, Status::Correct, "{v:?}");
            }
            // Hostile edits of the reference answer never panic and always give a finite score.
            for _ in 0..20 {
                let mut bytes = r.answer.clone().into_bytes();
                let noise = b"[](){}:,-0123456789 \"'";
                for _ in 0..1 + rng.index(4) {
                    let at = rng.index(bytes.len() + 1);
                    match rng.index(3) {
                        0 if at < bytes.len() => {
                            bytes.remove(at);
                        }
                        1 if at < bytes.len() => bytes[at] = noise[rng.index(noise.len())],
                        _ => bytes.insert(at, noise[rng.index(noise.len())]),
                    }
                }
                let text = format!("Answer: {}", String::from_utf8_lossy(&bytes));
                let input = NpInput {
                    task: P::NAME.into(),
                    instance: None,
                    reference: None,
                    level: Some(spec.level),
                    seed: Some(seed),
                    response: text,
                    reward_mode: RewardMode::Quality,
                    strict: false,
                    infeasible_reward: None,
                };
                let v = verifier.verify_one(&input);
                assert!(v.score_in(0.0, 1.1), "{v:?}");
            }
            for (text, kind) in P::mutations(&instance, &solution, &mut rng) {
                let result = check::<P>(&instance, &format!("Answer: {text}"), false).result;
                let found = result.as_ref().err().map(|e| e.kind);
                assert_eq!(found, Some(kind), "{} mutation {text:?} gave {result:?}", P::NAME);
            }
        }
    }
}

/// Random tiny instances: exact == brute force, heuristic and reference feasible and never
/// better than the optimum, proven references equal to it.
pub(crate) fn check_tiny<P: Testable>(count: usize, seed: u64) {
    let mut rng = Rng::from_seed(seed);
    for i in 0..count {
        let instance = P::tiny(&mut rng);
        P::validate(&instance).unwrap_or_else(|e| panic!("tiny {i}: {e}"));
        let optimum = P::brute_force(&instance);
        let exact = objective::<P>(&instance, &P::exact(&instance), "exact");
        assert_eq!(
            exact,
            optimum,
            "{} tiny {i}: exact {exact} vs brute force {optimum}: {}",
            P::NAME,
            json!(serde_json::to_value(&instance).ok())
        );
        let heuristic = objective::<P>(&instance, &P::heuristic(&instance), "heuristic");
        assert!(
            P::DIRECTION.at_least_as_good(optimum, heuristic),
            "{} heuristic {heuristic} beats optimum {optimum}",
            P::NAME
        );
        let baseline = objective::<P>(&instance, &P::baseline(&instance), "baseline");
        assert!(P::DIRECTION.at_least_as_good(optimum, baseline));
        let solved = P::solve(&instance, None);
        let reference = objective::<P>(&instance, &solved.solution, "reference");
        if solved.kind.proven() {
            assert_eq!(reference, optimum, "{} tiny {i}: proven reference is not optimal", P::NAME);
        }
        if let Some(bound) = solved.bound {
            assert!(P::DIRECTION.at_least_as_good(bound, optimum), "{} bound {bound} vs optimum {optimum}", P::NAME);
        }
    }
}

#[cfg(test)]
mod heavy {
    use super::check_tiny;
    use crate::tasks::{
        bin_packing::BinPacking, cvrp::Cvrp, dominating_set::DominatingSet, exact_cover::ExactCover,
        graph_coloring::GraphColoring, hamiltonian_cycle::HamiltonianCycle, independent_set::MaxIndependentSet,
        independent_set::MinVertexCover, job_shop::JobShop, knapsack::Knapsack, max_clique::MaxClique, max_cut::MaxCut,
        max_sat::MaxSat, max_sat::Sat, min_bisection::MinBisection, number_partition::NumberPartition,
        parallel_machines::ParallelMachines, set_cover::SetCover, steiner_tree::SteinerTree, subset_sum::SubsetSum,
        tsp::Tsp,
    };

    /// Ten thousand more random small instances per task, with seeds unlike the default tests'.
    /// Run with `cargo test -p referee-np --release -- --ignored`.
    #[test]
    #[ignore = "about 20 s in release; the default tests run 1,000-2,000 instances per task"]
    fn exact_solvers_agree_with_brute_force_at_scale() {
        const N: usize = 10_000;
        check_tiny::<Tsp>(N, 1001);
        check_tiny::<HamiltonianCycle>(N, 1002);
        check_tiny::<GraphColoring>(N, 1003);
        check_tiny::<MaxClique>(N, 1004);
        check_tiny::<MaxIndependentSet>(N, 1005);
        check_tiny::<MinVertexCover>(N, 1006);
        check_tiny::<MaxCut>(N, 1007);
        check_tiny::<MinBisection>(N, 1008);
        check_tiny::<Knapsack>(N, 1009);
        check_tiny::<SubsetSum>(N, 1010);
        check_tiny::<NumberPartition>(N, 1011);
        check_tiny::<BinPacking>(N, 1012);
        check_tiny::<SetCover>(N, 1013);
        check_tiny::<ExactCover>(N, 1014);
        check_tiny::<DominatingSet>(N, 1015);
        check_tiny::<MaxSat>(N, 1016);
        check_tiny::<Sat>(N, 1017);
        check_tiny::<JobShop>(N, 1018);
        check_tiny::<ParallelMachines>(N, 1019);
        check_tiny::<Cvrp>(N, 1020);
        check_tiny::<SteinerTree>(N, 1021);
        check_tiny::<crate::tasks::facility_location::FacilityLocation>(N, 1022);
        check_tiny::<crate::tasks::n_queens::NQueens>(N, 1023);
        check_tiny::<crate::tasks::sudoku::Sudoku>(N, 1024);
        check_tiny::<crate::tasks::meeting_schedule::MeetingSchedule>(N, 1025);
        check_tiny::<crate::tasks::countdown::Countdown>(N, 1026);
        check_tiny::<crate::tasks::futoshiki::Futoshiki>(N, 1027);
    }
}
