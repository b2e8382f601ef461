//! The program inside a model response, read through the shared response anatomy
//! ([`referee_core::anatomy`]): the last fenced code block of the final text.

use referee_core::anatomy::{Anatomy, Marker};

/// The last fenced code block after the response's reasoning. A final fence left open, as in a
/// truncated response, counts up to the end of the text.
pub fn last_fenced_block(response: &str) -> Result<&str, &'static str> {
    let anatomy = Anatomy::read(response);
    if anatomy.reasoning_unclosed() {
        return Err("the response ended inside its reasoning (`<think>` without `</think>`), so it has no program");
    }
    anatomy.get(Marker::FencedBlock).map(|c| c.text).ok_or("the response has no fenced code block")
}

#[cfg(test)]
mod tests {
    use referee_core::anatomy::fixtures::rows;

    use super::*;

    #[test]
    fn takes_the_last_block() {
        let response = "First:\n```python\nprint(1)\n```\nBetter:\n```py\nprint(2)\n```\nDone.";
        assert_eq!(last_fenced_block(response), Ok("print(2)\n"));
        assert!(last_fenced_block("no code here").is_err());
        assert_eq!(last_fenced_block("```\nx = 1\n"), Ok("x = 1\n"));
        assert_eq!(last_fenced_block("<think>```\nbad\n```</think>\n```\ngood\n```"), Ok("good\n"));
        assert!(last_fenced_block("<think>```\ndraft\n```").is_err_and(|e| e.contains("reasoning")));
    }

    #[test]
    fn agrees_with_the_shared_anatomy_fixture() {
        for row in rows() {
            let expected = if row.unclosed { None } else { row.candidates.get(&Marker::FencedBlock) };
            assert_eq!(last_fenced_block(&row.response).ok(), expected.map(String::as_str), "{}", row.name);
        }
    }
}
