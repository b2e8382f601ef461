//! Benchmarks of the NP environments: parse+verify throughput per task, generation with the
//! reference per level, exact TSP time, and heuristic quality against exact optima.
//!
//! `cargo run --release -p referee-np --example bench -- [--quick] [--cases FILE]`
//! prints Markdown tables; `--cases` also writes the verified cases as JSON lines for the
//! Python comparison in `bench/np/compare.py`.

use std::hint::black_box;
use std::io::Write as _;
use std::time::{Duration, Instant};

use referee_core::{Budget, Verifier};
use referee_np::rng::Rng;
use referee_np::task::{Problem, check};
use referee_np::tasks::{
    bin_packing::BinPacking, cvrp::Cvrp, dominating_set::DominatingSet, exact_cover::ExactCover,
    graph_coloring::GraphColoring, hamiltonian_cycle::HamiltonianCycle, independent_set::MaxIndependentSet,
    independent_set::MinVertexCover, job_shop::JobShop, knapsack::Knapsack, max_clique::MaxClique, max_cut::MaxCut,
    max_sat::MaxSat, max_sat::Sat, min_bisection::MinBisection, number_partition::NumberPartition,
    parallel_machines::ParallelMachines, set_cover::SetCover, steiner_tree::SteinerTree, subset_sum::SubsetSum,
    tsp::Tsp,
};
use referee_np::tasks::{
    countdown::Countdown, facility_location::FacilityLocation, futoshiki::Futoshiki, meeting_schedule::MeetingSchedule,
    n_queens::NQueens, sudoku::Sudoku,
};
use referee_np::{NpInput, NpVerifier, RewardMode, catalogue, generate};
use serde_json::json;

/// About 1 KB of reasoning before the answer, as a model would write.
fn response(answer: &str) -> String {
    let thinking = "Let me compare a few candidate solutions and check the constraints again. ".repeat(14);
    format!("<think>{thinking}</think>\nI checked every constraint.\n\nAnswer: {answer}")
}

/// Time per call of `f`: the median over 15 batches, each running `f` for at least
/// `min_total / 15`. The median keeps one descheduling (the machine is shared) from skewing it.
fn time_per_call(min_total: Duration, mut f: impl FnMut()) -> Duration {
    f();
    let slice = min_total / 15;
    let mut per_call: Vec<Duration> = (0..15)
        .map(|_| {
            let mut calls = 0u32;
            let start = Instant::now();
            while start.elapsed() < slice {
                for _ in 0..32 {
                    f();
                }
                calls += 32;
            }
            start.elapsed() / calls
        })
        .collect();
    per_call.sort();
    per_call[per_call.len() / 2]
}

struct Config {
    quick: bool,
    cases: Option<std::fs::File>,
}

fn verify_row<P: Problem>(cfg: &mut Config, level: u8) {
    let verifier = NpVerifier::new();
    let seeds = if cfg.quick { 4 } else { 16 };
    let mut cases = Vec::new();
    for seed in 0..seeds {
        let Ok(g) = generate(P::NAME, level, seed) else { continue };
        let Ok(instance) = serde_json::from_value::<P::Instance>(g.instance.clone()) else { continue };
        let text = response(&g.reference.answer);
        if let Some(file) = cfg.cases.as_mut() {
            let line = json!({ "task": P::NAME, "level": level, "seed": seed, "instance": g.instance, "response": text, "objective": g.reference.objective });
            let _ = writeln!(file, "{line}");
        }
        cases.push((instance, text, seed, g.reference.objective));
    }
    let budget = if cfg.quick { Duration::from_millis(20) } else { Duration::from_millis(150) };
    let mut k = 0;
    let parse_verify = time_per_call(budget, || {
        let (instance, text, _, _) = &cases[k % cases.len()];
        k += 1;
        black_box(check::<P>(black_box(instance), black_box(text), false).result.is_ok());
    });
    let ok = cases.iter().all(|(i, t, _, obj)| check::<P>(i, t, false).result.is_ok_and(|(_, o)| o == *obj));
    let inputs: Vec<NpInput> = cases
        .iter()
        .map(|(_, text, seed, _)| NpInput {
            task: P::NAME.into(),
            instance: None,
            reference: None,
            level: Some(level),
            seed: Some(*seed),
            response: text.clone(),
            reward_mode: RewardMode::Quality,
            strict: false,
            infeasible_reward: None,
        })
        .collect();
    let _ = verifier.verify_batch(&inputs, &Budget::unlimited());
    let mut k = 0;
    let verdict = time_per_call(budget, || {
        k += 1;
        black_box(verifier.verify_one(&inputs[k % inputs.len()]));
    });
    let batch_start = Instant::now();
    let rounds = if cfg.quick { 20 } else { 200 };
    let big: Vec<NpInput> = (0..rounds).flat_map(|_| inputs.iter().cloned()).collect();
    let verdicts = verifier.verify_batch(&big, &Budget::unlimited());
    let per_item = batch_start.elapsed() / verdicts.len() as u32;
    println!(
        "| {} | {} | {} | {:.2} | {:.2} | {:.0} | {} |",
        P::NAME,
        level,
        cases.first().map_or(0, |c| c.1.len()),
        parse_verify.as_nanos() as f64 / 1000.0,
        verdict.as_nanos() as f64 / 1000.0,
        1e9 / per_item.as_nanos().max(1) as f64,
        if ok { "yes" } else { "NO" }
    );
}

fn tsp_targets(quick: bool) {
    // 45 cities, as NP-Engine's hard level.
    let mut rng = Rng::from_seed(45);
    let points: Vec<(i64, i64)> = (0..45).map(|_| (rng.range(0, 1000), rng.range(0, 1000))).collect();
    let inst = referee_np::tasks::tsp::euclidean(&points);
    let tour = referee_np::tasks::tsp::local_search(&inst.distances, 10);
    let answer = format!("{tour:?}");
    let short = format!("The shortest tour I found:\nAnswer: {answer}");
    let long = response(&answer);
    let budget = if quick { Duration::from_millis(50) } else { Duration::from_millis(500) };
    let t_short = time_per_call(budget, || {
        black_box(check::<Tsp>(black_box(&inst), black_box(&short), false).result.is_ok());
    });
    let t_long = time_per_call(budget, || {
        black_box(check::<Tsp>(black_box(&inst), black_box(&long), false).result.is_ok());
    });
    let t_strict = time_per_call(budget, || {
        black_box(check::<Tsp>(black_box(&inst), black_box(&short), true).result.is_ok());
    });
    println!(
        "| TSP n=45, answer line only ({} B), lenient | {:.3} µs |",
        short.len(),
        t_short.as_nanos() as f64 / 1000.0
    );
    println!("| TSP n=45, answer line only, strict | {:.3} µs |", t_strict.as_nanos() as f64 / 1000.0);
    println!(
        "| TSP n=45, after 1 KB of reasoning ({} B), lenient | {:.3} µs |",
        long.len(),
        t_long.as_nanos() as f64 / 1000.0
    );
    for n in [12usize, 14, 15, 16] {
        let runs = if quick { 3 } else { 20 };
        let mut times = Vec::new();
        for s in 0..runs {
            let mut rng = Rng::from_seed(1000 + s);
            let points: Vec<(i64, i64)> = (0..n).map(|_| (rng.range(0, 1000), rng.range(0, 1000))).collect();
            let inst = referee_np::tasks::tsp::euclidean(&points);
            let start = Instant::now();
            black_box(referee_np::tasks::tsp::held_karp(&inst.distances));
            times.push(start.elapsed());
        }
        times.sort();
        let mean = times.iter().sum::<Duration>() / times.len() as u32;
        println!(
            "| exact TSP (Held-Karp) n={n}, {runs} instances | mean {:.2} ms, max {:.2} ms |",
            mean.as_secs_f64() * 1e3,
            times.last().map_or(0.0, |t| t.as_secs_f64() * 1e3)
        );
    }
}

/// Graph colouring checked from a `{"vertex": colour}` map in `<answer>` tags, the shape of
/// reasoning-gym's graph_color answers, at its sizes.
fn colouring_maps(quick: bool) {
    use referee_np::tasks::graph_coloring::{GraphColoring, dsatur};
    for n in [10usize, 20] {
        let mut rng = Rng::from_seed(n as u64);
        let cases: Vec<(referee_np::tasks::graph_coloring::ColoringInstance, String)> = (0..16)
            .map(|_| {
                let g = referee_np::tasks::graph_coloring::random_graph(n, 0.15, &mut rng);
                let colours = dsatur(&g.bitgraph());
                let map: Vec<String> = colours.iter().enumerate().map(|(v, c)| format!("\"{v}\": {}", c + 1)).collect();
                let thinking = "Let me compare a few candidate solutions and check the constraints again. ".repeat(14);
                (g, format!("<think>{thinking}</think>\n<answer>{{{}}}</answer>", map.join(", ")))
            })
            .collect();
        assert!(cases.iter().all(|(g, r)| check::<GraphColoring>(g, r, false).result.is_ok()));
        let mut k = 0;
        let t = time_per_call(if quick { Duration::from_millis(50) } else { Duration::from_millis(300) }, || {
            let (g, r) = &cases[k % cases.len()];
            k += 1;
            black_box(check::<GraphColoring>(black_box(g), black_box(r), false).result.is_ok());
        });
        println!(
            "| graph_coloring, {n} vertices, JSON map in <answer> tags | {:.3} µs |",
            t.as_nanos() as f64 / 1000.0
        );
    }
}

fn generation(quick: bool) {
    let seeds = if quick { 3 } else { 10 };
    for task in catalogue() {
        let mut cells = Vec::new();
        for level in &task.levels {
            let mut times = Vec::new();
            let mut kinds = std::collections::BTreeSet::new();
            for seed in 0..seeds {
                let start = Instant::now();
                if let Ok(g) = generate(&task.task, level.level, seed) {
                    kinds.insert(match g.reference.kind {
                        referee_np::ReferenceKind::Exact => "E",
                        referee_np::ReferenceKind::PlantedOptimal => "P",
                        referee_np::ReferenceKind::Heuristic => "H",
                    });
                }
                times.push(start.elapsed());
            }
            let mean = times.iter().sum::<Duration>() / times.len() as u32;
            let max = times.iter().max().copied().unwrap_or_default();
            let kinds: Vec<&str> = kinds.into_iter().collect();
            cells.push(format!("{:.2} / {:.2} {}", mean.as_secs_f64() * 1e3, max.as_secs_f64() * 1e3, kinds.join("")));
        }
        println!("| {} | {} |", task.task, cells.join(" | "));
    }
}

/// Mean quality ratio and share of optimal answers of a heuristic against proven references.
fn heuristic_row<P: Problem>(quick: bool, name: &str, heuristic: impl Fn(&P::Instance) -> P::Solution) {
    let seeds = if quick { 5 } else { 40 };
    let mut ratios = Vec::new();
    let mut optimal = 0;
    let mut worse_than_exact = 0;
    for level in 1..=3u8 {
        for seed in 0..seeds {
            let Ok(g) = generate(P::NAME, level, seed) else { continue };
            if !g.reference.kind.proven() {
                continue;
            }
            let Ok(inst) = serde_json::from_value::<P::Instance>(g.instance) else { continue };
            let Ok(obj) = P::objective(&inst, &heuristic(&inst)) else { continue };
            let r = P::DIRECTION.ratio(obj, g.reference.objective);
            if r > 1.0 + 1e-12 {
                worse_than_exact += 1;
            }
            if (r - 1.0).abs() < 1e-12 {
                optimal += 1;
            }
            ratios.push(r);
        }
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
    let min = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "| {} | {name} | {} | {:.4} | {:.4} | {:.0}% | {} |",
        P::NAME,
        ratios.len(),
        mean,
        min,
        100.0 * optimal as f64 / ratios.len().max(1) as f64,
        worse_than_exact
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let cases = args
        .iter()
        .position(|a| a == "--cases")
        .and_then(|i| args.get(i + 1))
        .and_then(|p| std::fs::File::create(p).ok());
    let mut cfg = Config { quick, cases };

    println!("### Parse + verify per task (level 3 instances, reference answers after ~1 KB of reasoning)\n");
    println!(
        "| task | level | response bytes | extract+parse+verify µs | full verdict µs (details, cached instance) | batch verdicts/s (rayon, all cores) | objective = reference |"
    );
    println!("|---|---|---|---|---|---|---|");
    verify_row::<Tsp>(&mut cfg, 3);
    verify_row::<Tsp>(&mut cfg, 4);
    verify_row::<HamiltonianCycle>(&mut cfg, 3);
    verify_row::<GraphColoring>(&mut cfg, 3);
    verify_row::<MaxClique>(&mut cfg, 3);
    verify_row::<MaxIndependentSet>(&mut cfg, 3);
    verify_row::<MinVertexCover>(&mut cfg, 3);
    verify_row::<MaxCut>(&mut cfg, 3);
    verify_row::<MinBisection>(&mut cfg, 3);
    verify_row::<Knapsack>(&mut cfg, 3);
    verify_row::<SubsetSum>(&mut cfg, 3);
    verify_row::<NumberPartition>(&mut cfg, 3);
    verify_row::<BinPacking>(&mut cfg, 3);
    verify_row::<SetCover>(&mut cfg, 3);
    verify_row::<ExactCover>(&mut cfg, 3);
    verify_row::<DominatingSet>(&mut cfg, 3);
    verify_row::<MaxSat>(&mut cfg, 3);
    verify_row::<Sat>(&mut cfg, 3);
    verify_row::<JobShop>(&mut cfg, 3);
    verify_row::<ParallelMachines>(&mut cfg, 3);
    verify_row::<Cvrp>(&mut cfg, 3);
    verify_row::<SteinerTree>(&mut cfg, 3);
    verify_row::<FacilityLocation>(&mut cfg, 3);
    verify_row::<MeetingSchedule>(&mut cfg, 3);
    verify_row::<NQueens>(&mut cfg, 3);
    verify_row::<Sudoku>(&mut cfg, 3);
    verify_row::<Countdown>(&mut cfg, 3);
    verify_row::<Futoshiki>(&mut cfg, 3);
    // Level 1 graph colouring for the reasoning-gym comparison (similar sizes).
    verify_row::<GraphColoring>(&mut cfg, 1);

    println!("\n### TSP targets\n");
    println!("| measurement | time |");
    println!("|---|---|");
    tsp_targets(quick);
    colouring_maps(quick);

    println!("\n### Generation with reference, per level (ms mean / max; E exact, P planted optimal, H heuristic)\n");
    println!("| task | level 1 | level 2 | level 3 | level 4 |");
    println!("|---|---|---|---|---|");
    generation(quick);

    println!("\n### Heuristics against proven optima (levels 1-3, instances whose reference is exact or planted)\n");
    println!("| task | heuristic | instances | mean ratio | worst ratio | optimal | better than optimum (must be 0) |");
    println!("|---|---|---|---|---|---|---|");
    use referee_np::tasks::*;
    heuristic_row::<Tsp>(quick, "NN + 2-opt/Or-opt, 20 kicks", |i| tsp::local_search(&i.distances, 20));
    heuristic_row::<Knapsack>(quick, "greedy by density", knapsack::greedy);
    heuristic_row::<MaxClique>(quick, "64 random greedy starts", max_clique::heuristic_clique);
    heuristic_row::<MaxIndependentSet>(quick, "64 random greedy starts", independent_set::heuristic_independent_set);
    heuristic_row::<GraphColoring>(quick, "DSATUR", |g| graph_coloring::dsatur(&g.bitgraph()));
    heuristic_row::<MaxCut>(quick, "1-flip local search, 64 starts", |g| max_cut::local_search(g, 64));
    heuristic_row::<MinBisection>(quick, "pair-swap descent, 32 starts", |g| min_bisection::swap_search(g, 32));
    heuristic_row::<NumberPartition>(quick, "Karmarkar-Karp", number_partition::karmarkar_karp);
    heuristic_row::<BinPacking>(quick, "first fit decreasing", bin_packing::first_fit_decreasing);
    heuristic_row::<ParallelMachines>(quick, "LPT", parallel_machines::lpt);
    heuristic_row::<SetCover>(quick, "greedy + redundancy removal", set_cover::heuristic);
    heuristic_row::<DominatingSet>(quick, "greedy + redundancy removal", dominating_set::heuristic);
    heuristic_row::<MaxSat>(quick, "WalkSAT, 2000 flips", |i| max_sat::walksat(i, 2000));
    heuristic_row::<JobShop>(quick, "Giffler-Thompson rules, 16 random", |i| job_shop::priority_rules(i, 16));
    heuristic_row::<Cvrp>(quick, "Clarke-Wright + 2-opt", cvrp::savings);
    heuristic_row::<SteinerTree>(quick, "shortest-path heuristic", steiner_tree::shortest_path_heuristic);
    heuristic_row::<FacilityLocation>(quick, "add/drop/swap local search", facility_location::local_search);
    heuristic_row::<MeetingSchedule>(quick, "greedy, largest meetings first", meeting_schedule::largest_first);
    heuristic_row::<Countdown>(quick, "pairwise search, 2000 nodes", |i| countdown::closest(i, 2000).0);
}
