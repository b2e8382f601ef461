//! The program inside a model response.

/// The last fenced code block of `response` (text before a closing `</think>` is ignored). A
/// final fence left open, as in a truncated response, counts up to the end of the text.
pub fn last_fenced_block(response: &str) -> Option<&str> {
    let text = response.rsplit_once("</think>").map_or(response, |(_, after)| after);
    let mut last = None;
    let mut open: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        if !line.trim_start().starts_with("```") {
            continue;
        }
        match open {
            None => open = Some(offset),
            Some(body) => {
                last = Some(&text[body..start]);
                open = None;
            }
        }
    }
    match open {
        Some(body) => Some(&text[body..]),
        None => last,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_last_block() {
        let response = "First:\n```python\nprint(1)\n```\nBetter:\n```py\nprint(2)\n```\nDone.";
        assert_eq!(last_fenced_block(response), Some("print(2)\n"));
        assert_eq!(last_fenced_block("no code here"), None);
        assert_eq!(last_fenced_block("```\nx = 1\n"), Some("x = 1\n"));
        assert_eq!(last_fenced_block("<think>```\nbad\n```</think>\n```\ngood\n```"), Some("good\n"));
    }
}
