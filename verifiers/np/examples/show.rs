//! Prints one generated instance (prompt, instance JSON, reference) of a task:
//! `cargo run -p referee-np --example show -- TASK LEVEL SEED`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let task = args.get(1).map_or("tsp", String::as_str);
    let level = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let seed = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    match referee_np::generate(task, level, seed) {
        Ok(g) => {
            println!("{}\n", g.prompt);
            println!("instance: {}\n", g.instance);
            println!("reference: {}", serde_json::to_string_pretty(&g.reference).unwrap_or_default());
        }
        Err(e) => eprintln!("{e}"),
    }
}
