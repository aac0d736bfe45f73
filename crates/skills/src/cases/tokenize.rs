//! Turning text into search terms for case matching, the same way for cases and messages:
//! runs of letters/digits become lowercase words (minus a few English stop words); runs of
//! CJK characters (Han, kana, Hangul), which have no spaces, become every character and every
//! pair of neighbouring characters (unigrams + bigrams), minus common function characters.

/// English words too common to say anything about a case.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "do", "for", "from", "have", "i", "if",
    "in", "is", "it", "me", "my", "of", "on", "or", "so", "that", "the", "this", "to", "was", "we",
    "what", "with", "you",
];

/// Chinese characters that carry grammar rather than topic, when alone.
const STOP_CHARS: &[char] = &[
    '的', '了', '是', '我', '你', '他', '她', '它', '在', '吗', '呢', '吧', '啊', '和', '也', '就',
    '都', '很', '有', '不', '这', '那', '个', '们', '一', '么', '什', '着', '要', '会', '得',
];

/// True for characters written without spaces between words.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F  // Extensions B–F, compatibility supplement
    )
}

/// The search terms of `text`, in order of appearance (duplicates kept: they are term
/// frequencies for indexing; callers dedupe queries).
pub(crate) fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut run: Vec<char> = Vec::new();
    for c in text.chars() {
        if is_cjk(c) {
            flush_word(&mut word, &mut out);
            run.push(c);
        } else if c.is_alphanumeric() {
            flush_run(&mut run, &mut out);
            word.extend(c.to_lowercase());
        } else {
            flush_word(&mut word, &mut out);
            flush_run(&mut run, &mut out);
        }
    }
    flush_word(&mut word, &mut out);
    flush_run(&mut run, &mut out);
    out
}

fn flush_word(word: &mut String, out: &mut Vec<String>) {
    if !word.is_empty() && !STOP_WORDS.contains(&word.as_str()) {
        out.push(std::mem::take(word));
    }
    word.clear();
}

fn flush_run(run: &mut Vec<char>, out: &mut Vec<String>) {
    for (i, &c) in run.iter().enumerate() {
        if !STOP_CHARS.contains(&c) {
            out.push(c.to_string());
        }
        if let Some(&next) = run.get(i + 1)
            && !(STOP_CHARS.contains(&c) && STOP_CHARS.contains(&next))
        {
            out.push([c, next].iter().collect());
        }
    }
    run.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_becomes_characters_and_pairs_without_function_words() {
        assert_eq!(terms("我很焦虑"), vec!["很焦", "焦", "焦虑", "虑"]);
        assert_eq!(terms("失眠。"), vec!["失", "失眠", "眠"]);
    }

    #[test]
    fn english_becomes_lowercase_words_without_stop_words() {
        assert_eq!(terms("I can't SLEEP at night"), vec!["can", "t", "sleep", "night"]);
    }

    #[test]
    fn mixed_text_switches_between_the_two() {
        assert_eq!(terms("iPhone焦虑"), vec!["iphone", "焦", "焦虑", "虑"]);
        assert!(is_cjk('한') && is_cjk('カ') && !is_cjk('，'));
    }
}
