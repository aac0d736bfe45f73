//! What may reach a terminal from text the person did not write: model replies and reasoning,
//! skill, tool and script names, titles, memory, state (every listing: `output::print` applies
//! it to all human output). Control characters (C0 but newline and tab, DEL, C1) and
//! bidirectional overrides are dropped, so a reply cannot clear the screen, move the cursor,
//! set the window title, ring the bell or hide text by reordering it. Without its ESC, an
//! escape sequence split across stream deltas is plain text. The `--json` output is not
//! filtered: it is JSON-escaped.

use std::borrow::Cow;

/// `text` without the characters a terminal would act on.
pub(crate) fn terminal_safe(text: &str) -> Cow<'_, str> {
    if text.chars().all(|c| !unsafe_char(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().filter(|&c| !unsafe_char(c)).collect())
}

fn unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::terminal_safe;

    #[test]
    fn escape_sequences_bells_and_overrides_are_dropped() {
        assert_eq!(terminal_safe("a\x1b[2Jb\x07c\x1b]0;title\x07d"), "a[2Jbc]0;titled");
        assert_eq!(terminal_safe("x\u{9b}31my\r\n\u{202E}z\u{7f}"), "x31my\nz");
    }

    #[test]
    fn ordinary_text_passes_untouched() {
        let text = "先照顾好自己\n\t- 睡前一小时放下手机 ✨";
        assert!(matches!(terminal_safe(text), std::borrow::Cow::Borrowed(_)));
        assert_eq!(terminal_safe(text), text);
    }
}
