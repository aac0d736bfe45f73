//! Splitting a leading `<think>…</think>` block out of answer text into reasoning. Local
//! reasoning models (Qwen3, DeepSeek-R1 on servers without a reasoning parser) put their
//! thinking into `content`; this keeps it apart as the `reasoning_content` field would.
//! Only a block at the very start of the answer counts; tags may be split across deltas.

use crate::types::Delta;

const OPEN: &str = "<think>";
const CLOSE: &str = "</think>";

#[derive(Debug)]
enum State {
    /// Nothing but (maybe) whitespace and part of `<think>` seen yet.
    Start(String),
    /// Inside the block; `pending` may end with part of `</think>`.
    Think(String),
    /// After the block (or there was none): text passes through.
    Answer { skip_leading_ws: bool },
}

#[derive(Debug)]
pub(crate) struct ThinkSplitter {
    state: State,
}

impl Default for ThinkSplitter {
    fn default() -> Self {
        Self { state: State::Start(String::new()) }
    }
}

impl ThinkSplitter {
    /// Route one piece of answer text.
    pub fn push(&mut self, text: &str, out: &mut Vec<Delta>) {
        match &mut self.state {
            State::Answer { skip_leading_ws } => {
                let text = if *skip_leading_ws { text.trim_start() } else { text };
                if !text.is_empty() {
                    self.state = State::Answer { skip_leading_ws: false };
                    out.push(Delta::Text { text: text.to_string() });
                }
            }
            State::Start(buf) => {
                buf.push_str(text);
                let trimmed = buf.trim_start();
                if let Some(rest) = trimmed.strip_prefix(OPEN) {
                    let rest = rest.to_string();
                    self.state = State::Think(String::new());
                    self.push(&rest, out);
                } else if !OPEN.starts_with(trimmed) || (trimmed.is_empty() && buf.len() > 64) {
                    let all = std::mem::take(buf);
                    self.state = State::Answer { skip_leading_ws: false };
                    out.push(Delta::Text { text: all });
                }
            }
            State::Think(pending) => {
                pending.push_str(text);
                if let Some(end) = pending.find(CLOSE) {
                    if end > 0 {
                        out.push(Delta::Reasoning { text: pending[..end].to_string() });
                    }
                    let rest = pending[end + CLOSE.len()..].to_string();
                    self.state = State::Answer { skip_leading_ws: true };
                    self.push(&rest, out);
                } else {
                    // Keep a tail that could be the start of `</think>`.
                    let keep = (1..CLOSE.len())
                        .rev()
                        .find(|&n| pending.ends_with(&CLOSE[..n]))
                        .unwrap_or(0);
                    let emit = pending.len() - keep;
                    if emit > 0 {
                        out.push(Delta::Reasoning { text: pending[..emit].to_string() });
                        pending.drain(..emit);
                    }
                }
            }
        }
    }

    /// The answer ended: release anything held back.
    pub fn flush(&mut self, out: &mut Vec<Delta>) {
        match std::mem::replace(&mut self.state, State::Answer { skip_leading_ws: false }) {
            State::Start(buf) if !buf.is_empty() => out.push(Delta::Text { text: buf }),
            State::Think(pending) if !pending.is_empty() => {
                out.push(Delta::Reasoning { text: pending });
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn split(pieces: &[&str]) -> (String, String) {
        let mut s = ThinkSplitter::default();
        let mut out = Vec::new();
        for p in pieces {
            s.push(p, &mut out);
        }
        s.flush(&mut out);
        let (mut text, mut reasoning) = (String::new(), String::new());
        for d in out {
            match d {
                Delta::Text { text: t } => text.push_str(&t),
                Delta::Reasoning { text: t } => reasoning.push_str(&t),
                other => panic!("{other:?}"),
            }
        }
        (text, reasoning)
    }

    #[test]
    fn a_leading_block_becomes_reasoning() {
        assert_eq!(
            split(&["<thi", "nk>plan it</th", "ink>\n\nHello"]),
            ("Hello".into(), "plan it".into())
        );
    }

    #[test]
    fn text_without_a_block_or_with_a_later_tag_is_untouched() {
        assert_eq!(
            split(&["Hi ", "<think>x</think>"]),
            ("Hi <think>x</think>".into(), String::new())
        );
        assert_eq!(split(&["<", "b>bold</b>"]), ("<b>bold</b>".into(), String::new()));
        assert_eq!(split(&["<thi"]), ("<thi".into(), String::new()));
    }

    #[test]
    fn an_unclosed_block_is_all_reasoning() {
        assert_eq!(
            split(&["<think>still going </thi"]),
            (String::new(), "still going </thi".into())
        );
    }

    proptest! {
        #[test]
        fn any_split_gives_the_same_result(cuts in proptest::collection::vec(0usize..40, 0..6)) {
            let whole = "  <think>a < b </ c</think>\nanswer <think>";
            let mut idx: Vec<usize> = cuts.into_iter().filter(|&c| whole.is_char_boundary(c)).collect();
            idx.sort_unstable();
            idx.dedup();
            let mut pieces = Vec::new();
            let mut last = 0;
            for c in idx {
                pieces.push(&whole[last..c]);
                last = c;
            }
            pieces.push(&whole[last..]);
            prop_assert_eq!(split(&pieces), split(&[whole]));
        }
    }
}
