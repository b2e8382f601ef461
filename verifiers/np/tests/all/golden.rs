//! Pins generated instances: (task, level, seed) must give the same instance and reference
//! objective on every version. A change here means the generator changed, which needs a
//! `GENERATOR_VERSION` bump and a deliberate refresh: `UPDATE_GOLDEN=1 cargo test -p referee-np --test all golden`.

use std::fmt::Write as _;

use referee_np::{catalogue, generate};

const GOLDEN: &str = "tests/golden/instances.txt";
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
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    let now = current();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let written =
            std::fs::create_dir_all(path.parent().unwrap_or(&path)).and_then(|()| std::fs::write(&path, &now));
        assert!(written.is_ok(), "{written:?}");
        return;
    }
    let pinned = std::fs::read_to_string(&path).unwrap_or_default();
    let pinned_lines: Vec<&str> = pinned.lines().collect();
    for line in now.lines() {
        assert!(pinned_lines.contains(&line), "not pinned (generator changed or new task): {line}");
    }
}
