//! Splitting reasoning written into the answer text out as reasoning. Local reasoning models
//! (Qwen3, DeepSeek-R1 on servers without a reasoning parser) put their thinking into
//! `content`; this keeps it apart as the `reasoning_content` field would. Two shapes:
//! a leading `<think>…</think>` block, and an answer that starts inside the reasoning
//! because the chat template already opened `<think>` (DeepSeek-R1 distills, some Qwen3
//! templates), so only `</think>` appears. That second shape is only known once `</think>`
//! arrives: the text streamed so far is then retracted with a `Restart` delta and sent again
//! as reasoning. Tags may be split across deltas; a literal tag is never passed on.

use crate::types::Delta;

const OPEN: &str = "<think>";
const CLOSE: &str = "</think>";

/// Why the text streamed so far is taken back (the `Restart` delta's reason).
pub(crate) const OPENED_BY_TEMPLATE: &str = "the answer began inside the model's reasoning (its chat template opened the thinking block); the text so far was reasoning";

#[derive(Debug)]
enum State {
    /// Nothing but (maybe) whitespace and part of `<think>` seen yet.
    Start(String),
    /// Inside the block; `pending` may end with part of `</think>`.
    Think(String),
    /// No leading block: text passes through, but a `</think>` turns everything before it
    /// into reasoning. `seen` is the text passed on so far; `held` a tail that may be the
    /// start of `</think>`.
    Untagged { seen: String, held: String },
    /// After the block (or there was none): text passes through.
    Answer { skip_leading_ws: bool },
}

/// Routes answer text into `Text` and `Reasoning` deltas (see the module header). Public for
/// engines outside this crate that produce raw text (the embedded llama.cpp engine).
#[derive(Debug)]
pub struct ThinkSplitter {
    state: State,
}

impl Default for ThinkSplitter {
    fn default() -> Self {
        Self { state: State::Start(String::new()) }
    }
}

/// The length of the longest tail of `text` that is a proper prefix of `</think>`.
fn close_prefix_len(text: &str) -> usize {
    (1..CLOSE.len()).rev().find(|&n| text.ends_with(&CLOSE[..n])).unwrap_or(0)
}

/// The largest char boundary of `text` at or below `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0)
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
                    self.state = State::Untagged { seen: String::new(), held: String::new() };
                    self.push(&all, out);
                }
            }
            State::Untagged { seen, held } => {
                held.push_str(text);
                let close_at = held.find(CLOSE);
                // A `<think>` before any `</think>` means the answer did not open inside
                // reasoning: tags from here on are plain text.
                let tail = &seen[floor_boundary(seen, seen.len().saturating_sub(OPEN.len() - 1))..];
                let open_at =
                    format!("{tail}{held}").find(OPEN).map(|i| i.saturating_sub(tail.len()));
                if let Some(open) = open_at
                    && close_at.is_none_or(|close| open < close)
                {
                    let held = std::mem::take(held);
                    self.state = State::Answer { skip_leading_ws: false };
                    self.push(&held, out);
                } else if let Some(end) = close_at {
                    let retract = !seen.is_empty();
                    let mut reasoning = std::mem::take(seen);
                    reasoning.push_str(&held[..end]);
                    let rest = held[end + CLOSE.len()..].to_string();
                    if retract {
                        out.push(Delta::Restart { reason: OPENED_BY_TEMPLATE.to_string() });
                    }
                    let reasoning = reasoning.trim_end();
                    if !reasoning.is_empty() {
                        out.push(Delta::Reasoning { text: reasoning.to_string() });
                    }
                    self.state = State::Answer { skip_leading_ws: true };
                    self.push(&rest, out);
                } else {
                    let emit = held.len() - close_prefix_len(held);
                    if emit > 0 {
                        let text: String = held.drain(..emit).collect();
                        seen.push_str(&text);
                        out.push(Delta::Text { text });
                    }
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
                    let emit = pending.len() - close_prefix_len(pending);
                    if emit > 0 {
                        out.push(Delta::Reasoning { text: pending[..emit].to_string() });
                        pending.drain(..emit);
                    }
                }
            }
        }
    }

    /// The server keeps reasoning apart itself (a reasoning field, or tool calls arrived):
    /// text without a leading block is plain answer text from here on.
    pub fn stop_watching(&mut self, out: &mut Vec<Delta>) {
        if let State::Untagged { held, .. } = &mut self.state {
            let held = std::mem::take(held);
            self.state = State::Answer { skip_leading_ws: false };
            self.push(&held, out);
        }
    }

    /// The answer ended: release anything held back.
    pub fn flush(&mut self, out: &mut Vec<Delta>) {
        match std::mem::replace(&mut self.state, State::Answer { skip_leading_ws: false }) {
            State::Start(buf) if !buf.is_empty() => out.push(Delta::Text { text: buf }),
            State::Untagged { held, .. } if !held.is_empty() => {
                out.push(Delta::Text { text: held });
            }
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
                Delta::Restart { .. } => {
                    text.clear();
                    reasoning.clear();
                }
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

    #[test]
    fn an_answer_opened_inside_reasoning_is_split_at_the_closing_tag() {
        let (text, reasoning) =
            split(&["The user wants ", "a plan.</th", "ink>\n\nHere is ", "the plan."]);
        assert_eq!(reasoning, "The user wants a plan.");
        assert_eq!(text, "Here is the plan.");
    }

    #[test]
    fn the_text_streamed_before_the_closing_tag_is_retracted_then_sent_as_reasoning() {
        let mut s = ThinkSplitter::default();
        let mut out = Vec::new();
        for piece in ["hmm", " ok</think>", "Hi"] {
            s.push(piece, &mut out);
        }
        s.flush(&mut out);
        assert_eq!(
            out,
            [
                Delta::Text { text: "hmm".into() },
                Delta::Restart { reason: OPENED_BY_TEMPLATE.into() },
                Delta::Reasoning { text: "hmm ok".into() },
                Delta::Text { text: "Hi".into() },
            ]
        );
        assert!(!format!("{out:?}").contains("think>"));
    }

    #[test]
    fn a_tail_like_the_closing_tag_is_released_when_it_is_not_one() {
        assert_eq!(split(&["a </th", "at"]), ("a </that".into(), String::new()));
        assert_eq!(split(&["a </th"]), ("a </th".into(), String::new()));
    }

    #[test]
    fn when_the_server_keeps_reasoning_apart_a_closing_tag_is_just_text() {
        let mut s = ThinkSplitter::default();
        let mut out = Vec::new();
        s.push("x <", &mut out);
        s.stop_watching(&mut out);
        s.push("/think> y", &mut out);
        let text: String = out
            .iter()
            .map(|d| match d {
                Delta::Text { text } => text.as_str(),
                _ => "?",
            })
            .collect();
        assert_eq!(text, "x </think> y");
    }

    proptest! {
        #[test]
        fn any_split_of_an_answer_opened_inside_reasoning_gives_the_same_result(cuts in proptest::collection::vec(0usize..40, 0..6)) {
            let whole = "plan: a < b </ c</think>\n\nanswer </think>";
            let mut idx: Vec<usize> = cuts.into_iter().filter(|&c| c <= whole.len() && whole.is_char_boundary(c)).collect();
            idx.sort_unstable();
            idx.dedup();
            let mut pieces = Vec::new();
            let mut last = 0;
            for c in idx {
                pieces.push(&whole[last..c]);
                last = c;
            }
            pieces.push(&whole[last..]);
            prop_assert_eq!(split(&pieces), ("answer </think>".to_string(), "plan: a < b </ c".to_string()));
        }

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
