use std::borrow::Cow;

use unicode_normalization::UnicodeNormalization;

/// How text is normalised before comparing. Steps apply in the order of the fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Normalization {
    /// Unicode NFKC: full-width digits, ligatures and compatibility forms become plain ones.
    pub nfkc: bool,
    /// Strip leading and trailing whitespace.
    pub trim: bool,
    /// Replace every run of whitespace with one space.
    pub collapse_whitespace: bool,
    /// Lowercase (Unicode).
    pub case_fold: bool,
}

impl Default for Normalization {
    fn default() -> Self {
        Normalization { nfkc: false, trim: true, collapse_whitespace: true, case_fold: false }
    }
}

impl Normalization {
    /// Applies the enabled steps; borrows when nothing changes.
    pub fn apply<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out: Cow<'a, str> = Cow::Borrowed(text);
        if self.nfkc && unicode_normalization::is_nfkc_quick(text.chars()) != unicode_normalization::IsNormalized::Yes {
            out = Cow::Owned(out.nfkc().collect());
        }
        if self.trim {
            out = match out {
                Cow::Borrowed(s) => Cow::Borrowed(s.trim()),
                Cow::Owned(s) => Cow::Owned(s.trim().to_owned()),
            };
        }
        if self.collapse_whitespace && needs_collapse(&out) {
            let mut collapsed = String::with_capacity(out.len());
            let mut in_space = false;
            for c in out.chars() {
                if c.is_whitespace() {
                    if !in_space {
                        collapsed.push(' ');
                    }
                    in_space = true;
                } else {
                    collapsed.push(c);
                    in_space = false;
                }
            }
            out = Cow::Owned(collapsed);
        }
        if self.case_fold && out.chars().any(|c| c.is_uppercase() || !c.is_ascii()) {
            out = Cow::Owned(out.to_lowercase());
        }
        out
    }
}

/// True when some whitespace is not a single plain space.
fn needs_collapse(text: &str) -> bool {
    let mut previous_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            if previous_space || c != ' ' {
                return true;
            }
            previous_space = true;
        } else {
            previous_space = false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_trim_and_collapse_only() {
        let n = Normalization::default();
        assert_eq!(n.apply("  a \t\n b  "), "a b");
        assert_eq!(n.apply("Ab"), "Ab");
        assert!(matches!(n.apply("a b"), Cow::Borrowed(_)));
    }

    #[test]
    fn nfkc_and_case_fold() {
        let n = Normalization { nfkc: true, case_fold: true, ..Normalization::default() };
        assert_eq!(n.apply("ＡＢＣ１２"), "abc12");
        assert_eq!(n.apply("ﬁne"), "fine");
        assert_eq!(n.apply("ÉCOLE"), "école");
    }
}
