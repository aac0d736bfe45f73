//! Named prompt sections and how they become one system prompt: sections are joined with a
//! blank line, each counted on its own (with the separator before it) through the cached
//! tokenizer, so the per-section counts add up to the prompt's count and an unchanged section
//! is never tokenised twice. Also small text helpers shared by the prompt builders.

use vibe_llm::ToolDef;
use vibe_wire::SectionTokens;

use super::tokenizer::Tokenizer;

/// The separator between sections.
pub(crate) const SEPARATOR: &str = "\n\n";

/// One named part of a system prompt.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Section {
    pub name: &'static str,
    pub text: String,
}

impl Section {
    pub fn new(name: &'static str, text: impl Into<String>) -> Self {
        Self { name, text: text.into() }
    }
}

/// Tokens of `section` when it is the `index`-th of a prompt (the separator before it counts).
pub(crate) fn section_tokens(tk: &Tokenizer, section: &Section, index: usize) -> u32 {
    let sep = if index == 0 { 0 } else { tk.count(SEPARATOR) };
    tk.count(&section.text) + sep
}

/// Tokens kept free for the seams between sections: counted one by one, a section's last
/// characters and the separator may tokenise a little differently than inside the whole
/// prompt (a token or two per seam), so budgets are checked with this much to spare.
pub(crate) fn seam_slack(sections: usize) -> u32 {
    2 * u32::try_from(sections.saturating_sub(1)).unwrap_or(u32::MAX / 2)
}

/// Tokens of the tool definitions.
pub(crate) fn tools_tokens(tk: &Tokenizer, tools: &[ToolDef]) -> u32 {
    tools.iter().map(|t| tk.count_tool(t)).sum()
}

/// The system prompt text of `sections`, in order.
pub(crate) fn join(sections: &[Section]) -> String {
    let len = sections.iter().map(|s| s.text.len() + SEPARATOR.len()).sum();
    let mut out = String::with_capacity(len);
    for (i, s) in sections.iter().enumerate() {
        if i > 0 {
            out.push_str(SEPARATOR);
        }
        out.push_str(&s.text);
    }
    out
}

/// The turn's sections wrapped to ride with the latest user message, or `None` when there
/// are none.
pub(crate) fn join_turn(sections: &[Section]) -> Option<String> {
    (!sections.is_empty()).then(|| {
        format!(
            "{}{SEPARATOR}{}\n{}",
            super::texts::TURN_OPEN,
            join(sections),
            super::texts::TURN_CLOSE
        )
    })
}

/// Tokens of the turn wrapper and its seams around `sections` (none without sections).
pub(crate) fn turn_wrapper_tokens(tk: &Tokenizer, sections: usize) -> u32 {
    if sections == 0 {
        return 0;
    }
    tk.count(super::texts::TURN_OPEN)
        + tk.count(SEPARATOR)
        + tk.count("\n")
        + tk.count(super::texts::TURN_CLOSE)
}

/// Per-section token counts (the tool definitions last, as `tools`) and their sum.
pub(crate) fn measure(
    tk: &Tokenizer,
    sections: &[Section],
    tools: &[ToolDef],
) -> (Vec<SectionTokens>, u32) {
    let mut out: Vec<SectionTokens> = sections
        .iter()
        .enumerate()
        .map(|(i, s)| SectionTokens { name: s.name.to_string(), tokens: section_tokens(tk, s, i) })
        .collect();
    if !tools.is_empty() {
        out.push(SectionTokens { name: "tools".to_string(), tokens: tools_tokens(tk, tools) });
    }
    let total = out.iter().map(|s| s.tokens).sum();
    (out, total)
}

/// Push every Markdown heading of `text` down by `levels` (at most `######`), so a part file's
/// `# Title` sits under the section's `##` heading.
pub(crate) fn demote_headings(text: &str, levels: usize) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut in_fence = false;
    for (i, line) in text.trim().lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        let hashes = line.bytes().take_while(|&b| b == b'#').count();
        if !in_fence && (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let level = (hashes + levels).min(6);
            out.push_str(&"#".repeat(level));
            out.push_str(&line[hashes..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// `text` cut to at most `max` characters on a character boundary, with `…` when cut.
pub(crate) fn cut_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", text[..end].trim_end()),
    }
}

/// The first sentence of `text` (up to a Chinese or English full stop, or a line end).
pub(crate) fn first_sentence(text: &str) -> &str {
    let text = text.trim();
    let end = text
        .char_indices()
        .find(|&(i, c)| {
            matches!(c, '。' | '！' | '？' | '\n' | '；')
                || (matches!(c, '.' | '!' | '?')
                    && text[i + c.len_utf8()..].starts_with([' ', '\n']))
        })
        .map(|(i, c)| i + c.len_utf8())
        .unwrap_or(text.len());
    text[..end].trim()
}

/// The leading whole sentences of `text` that fit `max` characters (at least the first one,
/// cut to `max`).
pub(crate) fn sentences_within(text: &str, max: usize) -> String {
    let mut rest = text.trim();
    let mut out = String::new();
    while !rest.is_empty() {
        let sentence = first_sentence(rest);
        if sentence.is_empty() {
            break;
        }
        if !out.is_empty() && out.chars().count() + sentence.chars().count() > max {
            break;
        }
        out.push_str(sentence);
        rest = rest[rest.find(sentence).map_or(rest.len(), |i| i + sentence.len())..].trim_start();
    }
    cut_chars(&out, max)
}

/// Whitespace runs (newlines included) collapsed to one space, or to nothing between two
/// non-ASCII characters (a line break inside Chinese text).
pub(crate) fn one_line(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = String::with_capacity(text.len());
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            let prev = out.chars().next_back().is_some_and(|c| !c.is_ascii());
            let next = word.chars().next().is_some_and(|c| !c.is_ascii());
            if !(prev && next) {
                out.push(' ');
            }
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_are_demoted_outside_code_fences() {
        let text = "# Title\n\ntext #1\n## Sub\n```\n# not a heading\n```\n####### x";
        let out = demote_headings(text, 2);
        assert_eq!(out, "### Title\n\ntext #1\n#### Sub\n```\n# not a heading\n```\n####### x");
    }

    #[test]
    fn cutting_and_sentences() {
        assert_eq!(cut_chars("八字命理咨询", 4), "八字命理…");
        assert_eq!(cut_chars("短", 4), "短");
        assert_eq!(first_sentence("人生教练：帮助用户。Life coach."), "人生教练：帮助用户。");
        assert_eq!(first_sentence("Bazi reading. More text"), "Bazi reading.");
        assert_eq!(first_sentence("v1.5 is out"), "v1.5 is out");
        assert_eq!(one_line(" a\n  b\tc "), "a b c");
        assert_eq!(one_line("十神，\n  把命盘 as 参考"), "十神，把命盘 as 参考");
        assert_eq!(
            sentences_within("第一句。第二句。English follows here.", 8),
            "第一句。第二句。"
        );
        assert_eq!(sentences_within("很长很长的一句话没有句号", 4), "很长很长…");
    }

    #[test]
    fn section_counts_add_up_to_the_joined_prompt() {
        let tk = Tokenizer::shared().unwrap();
        let sections = vec![
            Section::new("persona", "# 八字命理咨询师\n\n你是一位理性、温和的咨询师。"),
            Section::new("voice", "## 语气：温暖\n温柔、耐心。"),
            Section::new("language", "## 回复语言\nAlways answer in the user's language."),
        ];
        let (per, total) = measure(tk, &sections, &[]);
        assert_eq!(per.iter().map(|s| s.tokens).sum::<u32>(), total);
        assert_eq!(per.len(), 3);
        // Counted one by one, a seam may differ from the whole text by a token or two.
        let whole = tk.count_uncached(&join(&sections));
        assert!(whole.abs_diff(total) <= 2 * (sections.len() as u32 - 1), "{whole} vs {total}");
    }
}
