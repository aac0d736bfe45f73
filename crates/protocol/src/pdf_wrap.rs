//! Line wrapping for the PDF report: splits a paragraph into lines no wider than a given
//! width, measured with the font's advances. CJK text may break between any two characters
//! (closing punctuation stays with the character before it); Latin text breaks at spaces, and
//! a word wider than a whole line is broken between characters. Fonts and drawing are not
//! here (see `pdf_font` and `pdf`).

/// Whether `c` is a character that may stand alone on either side of a line break.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF      // radicals
        | 0x3000..=0x303F    // CJK symbols and punctuation
        | 0x3040..=0x30FF    // kana
        | 0x3100..=0x312F    // bopomofo
        | 0x3130..=0x318F    // hangul compatibility jamo
        | 0x3400..=0x4DBF    // extension A
        | 0x4E00..=0x9FFF    // unified ideographs
        | 0xAC00..=0xD7AF    // hangul syllables
        | 0xF900..=0xFAFF    // compatibility ideographs
        | 0xFF00..=0xFFEF    // full-width forms
        | 0x20000..=0x3FFFF) // extensions B and later
}

/// Punctuation that must not begin a line.
fn is_closing(c: char) -> bool {
    "，。、；：！？）」』】》〉”’…—,.;:!?)]}%".contains(c)
}

/// Units that are never split (unless one alone is wider than a line): a CJK character with
/// its closing punctuation, a Latin word, or a run of spaces.
fn units(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c == ' ' || c == '\t' {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            match out.last_mut() {
                Some(last) if last.starts_with(' ') => last.push(' '),
                _ => out.push(" ".to_string()),
            }
        } else if is_closing(c) && word.is_empty() && !out.is_empty() {
            if let Some(last) = out.last_mut().filter(|l| !l.starts_with(' ')) {
                last.push(c);
            } else {
                out.push(c.to_string());
            }
        } else if is_cjk(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            out.push(c.to_string());
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The lines of `text` at most `width` wide, measuring each character with `advance`.
/// Newlines in `text` always break; spaces at a line break are dropped.
pub(crate) fn wrap(text: &str, width: f32, advance: &dyn Fn(char) -> f32) -> Vec<String> {
    let measure = |s: &str| s.chars().map(advance).sum::<f32>();
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut used = 0.0;
        for unit in units(paragraph.trim_end_matches('\r')) {
            let w = measure(&unit);
            if unit.starts_with(' ') {
                if !line.is_empty() {
                    line.push_str(&unit);
                    used += w;
                }
                continue;
            }
            if used + w > width && !line.trim_end().is_empty() {
                lines.push(line.trim_end().to_string());
                line.clear();
                used = 0.0;
            }
            if w > width {
                // Too wide for any line: break it between characters.
                for c in unit.chars() {
                    let cw = advance(c);
                    if used + cw > width && !line.is_empty() {
                        lines.push(std::mem::take(&mut line));
                        used = 0.0;
                    }
                    line.push(c);
                    used += cw;
                }
            } else {
                line.push_str(&unit);
                used += w;
            }
        }
        lines.push(line.trim_end().to_string());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CJK characters are 2 wide, everything else 1.
    fn adv(c: char) -> f32 {
        if is_cjk(c) { 2.0 } else { 1.0 }
    }

    #[test]
    fn latin_breaks_at_spaces() {
        assert_eq!(wrap("the quick brown fox", 10.0, &adv), vec!["the quick", "brown fox"]);
    }

    #[test]
    fn cjk_breaks_between_any_two_characters_keeping_closing_punctuation() {
        // 6 wide: three characters a line; the comma stays with 生.
        assert_eq!(wrap("我的人生，地图", 6.0, &adv), vec!["我的人", "生，地", "图"]);
    }

    #[test]
    fn mixed_text_fits_and_newlines_break() {
        let lines = wrap("目标 goal 是写作 writing\n第二行", 12.0, &adv);
        assert_eq!(lines, vec!["目标 goal 是", "写作 writing", "第二行"]);
        for line in &lines {
            assert!(line.chars().map(adv).sum::<f32>() <= 12.0, "{line}");
        }
    }

    #[test]
    fn a_word_wider_than_a_line_is_split() {
        assert_eq!(wrap("abcdefghij xy", 4.0, &adv), vec!["abcd", "efgh", "ij", "xy"]);
    }

    #[test]
    fn empty_text_is_one_empty_line() {
        assert_eq!(wrap("", 10.0, &adv), vec![String::new()]);
    }
}
