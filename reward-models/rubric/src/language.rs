//! Which language a text is written in: by script for the languages with their own, by
//! function-word frequency among the Latin-script and Cyrillic ones.

/// The languages [`detect`] can name, as ISO 639-1 codes.
pub const SUPPORTED: [&str; 17] =
    ["en", "de", "fr", "es", "it", "pt", "nl", "ru", "uk", "zh", "ja", "ko", "ar", "he", "el", "hi", "th"];

/// Frequent function words of each language told apart by vocabulary.
const FUNCTION_WORDS: [(&str, &[&str]); 9] = [
    (
        "en",
        &[
            "the", "and", "of", "to", "is", "in", "that", "it", "was", "for", "with", "as", "are", "this", "be", "not",
            "have", "you", "they", "on",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "und", "das", "ist", "nicht", "ein", "eine", "zu", "den", "mit", "sich", "auf", "ich", "es",
            "dem", "auch", "wir", "sie", "wird",
        ],
    ),
    (
        "fr",
        &[
            "le", "la", "les", "et", "des", "est", "un", "une", "du", "que", "qui", "dans", "pour", "pas", "sur", "au",
            "avec", "il", "nous", "ce",
        ],
    ),
    (
        "es",
        &[
            "el", "la", "los", "las", "y", "que", "es", "un", "una", "del", "por", "con", "para", "se", "no", "lo",
            "como", "pero", "su", "al",
        ],
    ),
    (
        "it",
        &[
            "il", "la", "che", "di", "e", "un", "una", "non", "per", "con", "sono", "gli", "della", "del", "le", "è",
            "questo", "anche", "come", "lo",
        ],
    ),
    (
        "pt",
        &[
            "o", "a", "os", "as", "que", "não", "um", "uma", "do", "da", "em", "para", "com", "por", "se", "é", "dos",
            "mais", "como", "mas",
        ],
    ),
    (
        "nl",
        &[
            "de", "het", "een", "en", "van", "is", "niet", "dat", "op", "te", "zijn", "met", "voor", "ik", "je", "ook",
            "maar", "er", "wij", "dit",
        ],
    ),
    (
        "ru",
        &[
            "и", "в", "не", "на", "что", "он", "с", "как", "это", "по", "но", "из", "они", "мы", "был", "его", "она",
            "к", "для", "все",
        ],
    ),
    (
        "uk",
        &[
            "і", "в", "не", "на", "що", "він", "з", "як", "це", "та", "але", "із", "вони", "ми", "був", "його", "вона",
            "до", "для", "усі",
        ],
    ),
];

/// The most likely language of `text`, or `None` when nothing gives it away.
pub fn detect(text: &str) -> Option<&'static str> {
    let mut counts = [0usize; 10];
    const LATIN: usize = 0;
    const CYRILLIC: usize = 1;
    const HAN: usize = 2;
    const KANA: usize = 3;
    const HANGUL: usize = 4;
    const ARABIC: usize = 5;
    const HEBREW: usize = 6;
    const GREEK: usize = 7;
    const DEVANAGARI: usize = 8;
    const THAI: usize = 9;
    for c in text.chars() {
        let script = match c as u32 {
            0x41..=0x5A | 0x61..=0x7A | 0xC0..=0x24F => LATIN,
            0x400..=0x4FF => CYRILLIC,
            0x4E00..=0x9FFF | 0x3400..=0x4DBF => HAN,
            0x3040..=0x30FF => KANA,
            0xAC00..=0xD7AF | 0x1100..=0x11FF => HANGUL,
            0x600..=0x6FF => ARABIC,
            0x590..=0x5FF => HEBREW,
            0x370..=0x3FF => GREEK,
            0x900..=0x97F => DEVANAGARI,
            0xE00..=0xE7F => THAI,
            _ => continue,
        };
        counts[script] += 1;
    }
    let (script, count) = counts.iter().enumerate().max_by_key(|(_, count)| **count)?;
    if *count == 0 {
        return None;
    }
    match script {
        LATIN | CYRILLIC => by_function_words(text, script == CYRILLIC),
        // Japanese mixes kanji with kana; any real share of kana means Japanese.
        HAN => Some(if counts[KANA] * 10 >= counts[HAN] { "ja" } else { "zh" }),
        KANA => Some("ja"),
        HANGUL => Some("ko"),
        ARABIC => Some("ar"),
        HEBREW => Some("he"),
        GREEK => Some("el"),
        DEVANAGARI => Some("hi"),
        THAI => Some("th"),
        _ => None,
    }
}

fn by_function_words(text: &str, cyrillic: bool) -> Option<&'static str> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let candidates = FUNCTION_WORDS.iter().filter(|(code, _)| matches!(*code, "ru" | "uk") == cyrillic);
    let mut best: Option<(&'static str, usize)> = None;
    for (code, list) in candidates {
        let hits = words.iter().filter(|w| list.contains(w)).count();
        if hits > 0 && best.is_none_or(|(_, most)| hits > most) {
            best = Some((code, hits));
        }
    }
    // Letters unique to one of the two Cyrillic languages settle a tie in vocabulary.
    if cyrillic && lower.chars().any(|c| matches!(c, 'ї' | 'є' | 'ґ')) {
        return Some("uk");
    }
    best.map(|(code, _)| code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_common_languages() {
        for (text, code) in [
            ("The weather is nice and the children are playing in the park.", "en"),
            ("Das Wetter ist schön und die Kinder spielen mit dem Ball auf der Wiese.", "de"),
            ("Le temps est beau et les enfants jouent dans le parc avec leurs amis.", "fr"),
            ("El tiempo es bueno y los niños juegan en el parque con sus amigos.", "es"),
            ("Il tempo è bello e i bambini giocano nel parco con gli amici.", "it"),
            ("O tempo está bom e as crianças brincam no parque com os amigos.", "pt"),
            ("Het weer is mooi en de kinderen spelen in het park met hun vrienden.", "nl"),
            ("Погода хорошая, и дети играют в парке, как и все мы.", "ru"),
            ("Погода гарна, і діти граються в парку, як і всі ми.", "uk"),
            ("今天天气很好，孩子们在公园里玩。", "zh"),
            ("今日は天気が良くて、子供たちは公園で遊んでいます。", "ja"),
            ("오늘은 날씨가 좋아서 아이들이 공원에서 놀고 있어요.", "ko"),
            ("الطقس جميل اليوم والأطفال يلعبون في الحديقة.", "ar"),
            ("Ο καιρός είναι ωραίος σήμερα.", "el"),
        ] {
            assert_eq!(detect(text), Some(code), "{text}");
        }
        assert_eq!(detect("12345 !!!"), None);
    }
}
