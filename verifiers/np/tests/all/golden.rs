//! Pins generated instances: (task, level, seed) must give the same instance and reference
//! objective on every version. The pinned lines are the snapshot
//! `snapshots/all__golden__instances.snap`. A change here means the generator changed, which
//! needs a `GENERATOR_VERSION` bump and a deliberate refresh:
//! `INSTA_UPDATE=always cargo test -p referee-np --test all golden`, then review `git diff`.

use std::fmt::Write as _;

use referee_np::{catalogue, generate};

const SEEDS: [u64; 2] = [0, 12_345];

fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn current() -> String {
    let mut out =
        String::from("# task level seed generator_version instance_fnv1a reference_objective reference_kind\n");
    for task in catalogue() {
        for level in &task.levels {
            for seed in SEEDS {
                let g = generate(&task.task, level.level, seed).unwrap_or_else(|e| panic!("{e}"));
                let instance = serde_json::to_string(&g.instance).unwrap_or_default();
                let kind = serde_json::to_value(g.reference.kind).unwrap_or_default();
                let _ = writeln!(
                    out,
                    "{} {} {} {} {:016x} {} {}",
                    task.task,
                    level.level,
                    seed,
                    g.generator_version,
                    fnv1a(&instance),
                    g.reference.objective,
                    kind.as_str().unwrap_or("?")
                );
            }
        }
    }
    out
}

#[test]
fn generated_instances_match_the_pinned_ones() {
    insta::assert_snapshot!("instances", current());
}
