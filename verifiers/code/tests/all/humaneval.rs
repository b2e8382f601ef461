//! HumanEval through the `code` verifier: every canonical solution passes its check program, and
//! systematic mutants of the solutions fail.

use referee_code::CodeInput;
use referee_core::Status;
use serde_json::{Value, json};

use super::common::{self, judge};

struct Problem {
    task_id: String,
    prompt: String,
    solution: String,
    test: String,
    entry_point: String,
}

fn problems() -> anyhow::Result<Vec<Problem>> {
    let fields = ["task_id", "prompt", "canonical_solution", "test", "entry_point"];
    let rows = common::jsonl_fields(include_str!("../data/HumanEval.jsonl"), fields)?;
    Ok(rows
        .into_iter()
        .map(|[task_id, prompt, solution, test, entry_point]| Problem { task_id, prompt, solution, test, entry_point })
        .collect())
}

/// Fuel per item: the verifier's default, about two seconds of interpreter CPU. The slowest
/// canonical solution (HumanEval/75, a triple loop over primes) needs more than 2·10^9.
const FUEL: u64 = 20_000_000_000;

/// Fuel for the infinite-loop mutants, which always spend all of it.
const LOOP_FUEL: u64 = 1_000_000_000;

fn item_with_fuel(problem: &Problem, program: String, fuel: u64) -> anyhow::Result<CodeInput> {
    Ok(serde_json::from_value(json!({
        "language": "python",
        "program": program,
        "check": {"program": problem.test, "entry_point": problem.entry_point},
        "options": {"fuel": fuel},
    }))?)
}

fn item(problem: &Problem, program: String) -> anyhow::Result<CodeInput> {
    item_with_fuel(problem, program, FUEL)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn canonical_solutions_pass() -> anyhow::Result<()> {
    let problems = problems()?;
    assert_eq!(problems.len(), 164);
    let items = problems.iter().map(|p| item(p, format!("{}{}", p.prompt, p.solution))).collect::<Result<_, _>>()?;
    let verdicts = judge(items).await;
    let failed: Vec<String> = problems
        .iter()
        .zip(&verdicts)
        .filter(|(_, v)| v.status != Status::Correct)
        .map(|(p, v)| format!("{}: {:?} {}", p.task_id, v.status, Value::Object(v.details.clone())))
        .collect();
    assert!(failed.is_empty(), "{} canonical solutions failed:\n{}", failed.len(), failed.join("\n"));
    Ok(())
}

/// The first function body line of a HumanEval prompt is indented by four spaces.
fn body_prefix(problem: &Problem, statement: &str) -> String {
    format!("{}    {statement}\n{}", problem.prompt, problem.solution)
}

/// Wraps the entry point so that callers see a changed result.
fn wrapped(problem: &Problem, body: &str) -> String {
    format!(
        "{}{}\n\n_referee_original = {entry}\n\ndef {entry}(*args, **kwargs):\n    result = _referee_original(*args, **kwargs)\n{body}\n",
        problem.prompt,
        problem.solution,
        entry = problem.entry_point,
    )
}

/// Swaps the first comparison or arithmetic operator of the solution for its opposite.
fn wrong_operator(problem: &Problem) -> Option<String> {
    const SWAPS: [(&str, &str); 10] = [
        (" == ", " != "),
        (" != ", " == "),
        (" <= ", " > "),
        (" >= ", " < "),
        (" < ", " >= "),
        (" > ", " <= "),
        (" + ", " - "),
        (" - ", " + "),
        (" * ", " + "),
        (" and ", " or "),
    ];
    let first = SWAPS
        .iter()
        .filter_map(|(from, to)| problem.solution.find(from).map(|at| (at, *from, *to)))
        .min_by_key(|(at, _, _)| *at)?;
    let (at, from, to) = first;
    let mut mutated = problem.solution.clone();
    mutated.replace_range(at..at + from.len(), to);
    Some(format!("{}{}", problem.prompt, mutated))
}

/// Makes a mutant of a problem's canonical solution, or `None` where the mutation does not apply.
type Mutation = dyn Fn(&Problem) -> Option<String>;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn systematic_mutants_fail() -> anyhow::Result<()> {
    let problems = problems()?;
    let off_by_one = "    if isinstance(result, bool):\n        return not result\n    if isinstance(result, (int, float)):\n        return result + 1\n    if isinstance(result, (list, tuple, str)):\n        return result[:-1] if len(result) else result + result[:0] + type(result)('x' if isinstance(result, str) else [0])\n    return None";
    let kinds: [(&str, Box<Mutation>); 6] = [
        ("off_by_one", Box::new(|p| Some(wrapped(p, off_by_one)))),
        ("wrong_operator", Box::new(wrong_operator)),
        ("early_return", Box::new(|p| Some(body_prefix(p, "return None")))),
        ("raising", Box::new(|p| Some(body_prefix(p, "raise ValueError('mutant')")))),
        ("printing", Box::new(|p| Some(wrapped(p, "    print(result)")))),
        ("infinite_loop", Box::new(|p| Some(body_prefix(p, "while True: pass")))),
    ];
    let mut total = 0;
    let mut survivors = Vec::new();
    for (kind, mutate) in &kinds {
        let mutants: Vec<(&Problem, String)> = problems.iter().filter_map(|p| mutate(p).map(|m| (p, m))).collect();
        let fuel = if *kind == "infinite_loop" { LOOP_FUEL } else { FUEL };
        let items = mutants.iter().map(|(p, m)| item_with_fuel(p, m.clone(), fuel)).collect::<Result<_, _>>()?;
        let verdicts = judge(items).await;
        for ((problem, _), verdict) in mutants.iter().zip(&verdicts) {
            assert!(verdict.status != Status::InternalError, "{kind} {}: {:?}", problem.task_id, verdict.details);
            if verdict.score != 0.0 {
                survivors.push(format!("{kind} {}", problem.task_id));
            }
        }
        total += mutants.len();
    }
    let killed = total - survivors.len();
    println!("mutants killed: {killed} of {total}; survivors: {survivors:?}");
    assert!(killed * 100 >= total * 99, "only {killed} of {total} mutants failed; survivors: {survivors:?}");
    Ok(())
}

/// A wrong program cannot pass its check program by subverting the interpreter before the check
/// runs: replacing `exec`, `marshal.loads` or the runtime's outcome, claiming the report and
/// exiting, or jumping over the asserts with a trace function. The same program without the
/// subversion fails too, and the right one passes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_cannot_forge_or_disarm_its_check() -> anyhow::Result<()> {
    let check = "def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(1, 1) == 2\n";
    let wrong = "def add(a, b):\n    return a - b\n";
    let attempts = [
        wrong.to_owned(),
        // Disarming what runs the check.
        format!("{wrong}import builtins\nbuiltins.exec = lambda *a, **k: None\n__referee_report__ = 'checked'\n"),
        format!(
            "{wrong}import marshal\nmarshal.loads = lambda b: compile('pass', '<h>', 'exec')\n__referee_report__ = 'checked'\n"
        ),
        format!(
            "{wrong}import builtins\nbuiltins.compile = lambda *a, **k: (lambda: None).__code__\n__referee_report__ = 'checked'\n"
        ),
        format!("{wrong}globals()['__builtins__'] = {{'globals': lambda: {{'add': add}}}}\n"),
        // Forging the outcome.
        format!(
            "{wrong}import wit_world\nreal = wit_world.Outcome\n\
             wit_world.Outcome = lambda **k: real(**dict(k, exit_code=0, exception=None, report='checked'))\n"
        ),
        // Claiming the report and leaving before the check.
        format!("{wrong}__referee_report__ = 'checked'\nraise SystemExit(0)\n"),
        format!("{wrong}import sys\n__referee_report__ = 'checked'\nsys.exit()\n"),
        // Jumping over the asserts.
        format!(
            "{wrong}import sys\ndef tracer(frame, event, arg):\n    if frame.f_code.co_name == 'check' and event == 'line':\n\
             \x20       frame.f_lineno = 4\n    return tracer\nsys.settrace(tracer)\n"
        ),
        format!("{wrong}import sys\nsys.setprofile(lambda *a: None)\nsys.settrace = lambda t: None\n"),
    ];
    let right = "def add(a, b):\n    return a + b\n".to_owned();
    let programs: Vec<&String> = attempts.iter().chain(std::iter::once(&right)).collect();
    let items = programs
        .iter()
        .map(|program| -> anyhow::Result<CodeInput> {
            Ok(serde_json::from_value(json!({
                "language": "python",
                "program": program,
                "check": {"program": check, "entry_point": "add"},
            }))?)
        })
        .collect::<anyhow::Result<_>>()?;
    let verdicts = judge(items).await;
    let (right_verdict, attempt_verdicts) = verdicts.split_last().ok_or_else(|| anyhow::anyhow!("no verdicts"))?;
    for (program, verdict) in attempts.iter().zip(attempt_verdicts) {
        assert_eq!(verdict.score, 0.0, "{program}: {:?}", verdict.details);
        assert_ne!(verdict.status, Status::InternalError, "{program}: {:?}", verdict.details);
    }
    assert_eq!(right_verdict.status, Status::Correct, "{:?}", right_verdict.details);
    Ok(())
}
