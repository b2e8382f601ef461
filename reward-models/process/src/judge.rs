//! The judge's prompt for a solution's steps and the reading of its reply: one call per
//! response, every step numbered, a verdict line per step back (`Step k: correct` or
//! `Step k: incorrect`), as generative process reward models are asked.

use std::sync::LazyLock;

use referee_rubric::judge::ChatMessage;
use regex::Regex;

/// The system message: what a step's verdict means and the one reply format read.
pub const SYSTEM: &str = "You check a solution step by step. A step is correct when it is mathematically and \
logically valid given the problem and the steps before it, and incorrect otherwise (a wrong calculation, an \
unjustified claim, a step built on an earlier mistake). Judge every step. Reply with exactly one line per step, \
in order, `Step k: correct` or `Step k: incorrect`, and nothing else.";

/// The messages asking the judge about `steps` of a solution to `problem`.
pub fn messages(problem: &str, reference: Option<&str>, steps: &[&str]) -> Vec<ChatMessage> {
    let mut user = format!("Problem:\n{}\n\n", problem.trim());
    if let Some(reference) = reference {
        user.push_str(&format!("Reference answer:\n{}\n\n", reference.trim()));
    }
    user.push_str(&format!("Solution, in {} steps:\n", steps.len()));
    for (k, step) in steps.iter().enumerate() {
        user.push_str(&format!("\n[Step {}]\n{}\n", k + 1, step));
    }
    user.push_str(&format!("\nGive the verdict of each of the {} steps, one line each.", steps.len()));
    vec![
        ChatMessage { role: "system".to_owned(), content: SYSTEM.to_owned() },
        ChatMessage { role: "user".to_owned(), content: user },
    ]
}

static VERDICT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?mi)^[\s*#>\-]*\[?step[ \t]*([0-9]+)\]?[ \t*]*[:.)\-–—][ \t*]*(correct|incorrect|right|wrong)\b")
        .unwrap_or_else(|error| unreachable!("a fixed pattern compiles: {error}"))
});

/// Each step's verdict (true: correct) from the judge's `reply`, for `steps` steps; a reply that
/// leaves a step without a verdict, or gives a step two different ones, cannot be read. A
/// reasoning block (`<think>...</think>`) before the verdicts is skipped.
pub fn read_reply(reply: &str, steps: usize) -> Result<Vec<bool>, String> {
    let verdicts = reply.rfind("</think>").map_or(reply, |end| &reply[end + "</think>".len()..]);
    let mut found: Vec<Option<bool>> = vec![None; steps];
    for capture in VERDICT.captures_iter(verdicts) {
        let (Some(number), Some(word)) = (capture.get(1), capture.get(2)) else { continue };
        let Some(k) = number.as_str().parse::<usize>().ok().filter(|k| (1..=steps).contains(k)) else { continue };
        let correct = matches!(word.as_str().to_ascii_lowercase().as_str(), "correct" | "right");
        match found[k - 1] {
            Some(earlier) if earlier != correct => {
                return Err(format!("step {k} is judged both correct and incorrect"));
            }
            Some(_) | None => found[k - 1] = Some(correct),
        }
    }
    let missing: Vec<String> =
        found.iter().enumerate().filter(|(_, v)| v.is_none()).map(|(k, _)| (k + 1).to_string()).collect();
    if !missing.is_empty() {
        return Err(format!("no verdict for step(s) {}", missing.join(", ")));
    }
    Ok(found.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_is_numbered_in_the_prompt() {
        let asked = messages("What is 2 + 3 * 4?", Some("14"), &["3 * 4 = 12", "2 + 12 = 14"]);
        assert_eq!(asked.len(), 2);
        let user = &asked[1].content;
        assert!(user.contains("[Step 1]\n3 * 4 = 12") && user.contains("[Step 2]\n2 + 12 = 14"), "{user}");
        assert!(user.contains("Reference answer:\n14"));
    }

    #[test]
    fn replies_are_read_per_step() {
        let reply = "<think>Step 1: incorrect? no.</think>\nStep 1: correct\n**Step 2:** Incorrect, 5 * 4 is 20\n- Step 3 - right";
        assert_eq!(read_reply(reply, 3), Ok(vec![true, false, true]));
        assert!(read_reply("Step 1: correct", 2).is_err_and(|e| e.contains("step(s) 2")));
        assert!(read_reply("Step 1: correct\nStep 1: incorrect", 1).is_err());
        // Verdicts for steps that do not exist are ignored.
        assert_eq!(read_reply("Step 1: wrong\nStep 9: correct", 1), Ok(vec![false]));
    }
}
