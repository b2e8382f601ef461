//! Error chains and excerpts, as model-server messages show them.

/// An error with its causes, `: `-separated, each said once.
pub fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let said = cause.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        source = cause.source();
    }
    text
}

/// At most `limit` characters of `text`, with `…` when cut.
pub fn truncate(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_cut_at_characters() {
        assert_eq!(truncate("abcdef", 3), "abc…");
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("ééé", 2), "éé…");
    }

    #[test]
    fn a_chain_says_each_cause_once() {
        let inner = std::io::Error::other("disk on fire");
        let outer = std::io::Error::new(std::io::ErrorKind::NotFound, inner);
        assert_eq!(chain(&outer), "disk on fire");
        let wrapped = crate::CaFileError::Unreadable {
            key: "k".to_owned(),
            path: "/x".into(),
            source: std::io::Error::other("gone"),
        };
        assert_eq!(chain(&wrapped), "k: cannot read /x: gone");
    }
}
