//! The deterministic side of compaction (docs/design.md#compaction): a digest of folded messages
//! (each user message's opening sentences, each reply's first sentence and the tools it called),
//! merging it into the stored summary and bounding the result — reply lines go first, then the
//! middle, so the earliest facts and the latest ones survive. Also the request of the optional
//! summarising model call.

use vibe_llm::{ChatRequest, Message, Params};
use vibe_store::Role;

use super::render::head_and_tail;
use super::sections::{cut_chars, one_line, sentences_within};
use super::tokenizer::Tokenizer;

/// Line prefixes of the digest; reply lines are dropped first when the summary is too long.
pub(crate) const USER_PREFIX: &str = "- 用户：";
pub(crate) const REPLY_PREFIX: &str = "- 助手：";
/// The marker `head_and_tail` leaves where lines were cut.
const CUT_MARKER: &str = "……（中间部分从略）";
/// Characters kept of a user message and of a reply.
const USER_CHARS: usize = 160;
const REPLY_CHARS: usize = 80;

/// One digest line per folded user message and reply (tool results are left out; the calls
/// that produced them are named on the reply's line).
pub(crate) fn digest(rows: &[vibe_store::Message]) -> Vec<String> {
    let mut out = Vec::new();
    for row in rows {
        let text = one_line(&row.content);
        match row.role {
            Role::User if !text.is_empty() => {
                out.push(format!("{USER_PREFIX}{}", sentences_within(&text, USER_CHARS)));
            }
            Role::Assistant => {
                let calls: Vec<&str> = row
                    .tool_calls
                    .as_ref()
                    .and_then(|v| v.as_array())
                    .map(|items| {
                        items
                            .iter()
                            .filter_map(|c| c.get("function").unwrap_or(c).get("name")?.as_str())
                            .collect()
                    })
                    .unwrap_or_default();
                let mut line = String::new();
                if !text.is_empty() {
                    line.push_str(&sentences_within(&text, REPLY_CHARS));
                }
                if !calls.is_empty() {
                    line.push_str(&format!("（调用了 {}）", calls.join("、")));
                }
                if row.interrupted {
                    line.push_str("（回复被中断）");
                }
                if !line.is_empty() {
                    out.push(format!("{REPLY_PREFIX}{line}"));
                }
            }
            _ => {}
        }
    }
    out
}

/// `summary` within `max` tokens: reply lines dropped oldest first, then lines from the middle
/// (the first and the last ones are kept), then the text cut.
pub(crate) fn bound(tk: &Tokenizer, summary: &str, max: u32) -> String {
    let lines: Vec<&str> =
        summary.lines().filter(|l| l.trim() != CUT_MARKER && !l.trim().is_empty()).collect();
    // Each line is counted on its own (cached), plus its newline.
    let costs: Vec<u32> = lines.iter().map(|l| tk.count(l) + 1).collect();
    let mut total: u32 = costs.iter().sum();
    let mut keep = vec![true; lines.len()];
    for (i, line) in lines.iter().enumerate() {
        if total <= max {
            break;
        }
        if line.starts_with(REPLY_PREFIX) {
            keep[i] = false;
            total -= costs[i];
        }
    }
    let kept: Vec<&str> = lines.iter().zip(keep).filter(|(_, k)| *k).map(|(l, _)| *l).collect();
    head_and_tail(tk, &kept.join("\n"), max)
}

/// The stored summary with `lines` added, bounded to `max` tokens.
pub(crate) fn merge(tk: &Tokenizer, old: Option<&str>, lines: &[String], max: u32) -> String {
    let mut text = old.map(str::trim).unwrap_or_default().to_string();
    for line in lines {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(line);
    }
    bound(tk, &text, max)
}

/// The request for the optional summarising model call: the old summary and the folded
/// messages (their text, bounded) in, one merged summary of at most `max` tokens out.
pub(crate) fn summary_request(
    tk: &Tokenizer,
    old: Option<&str>,
    rows: &[vibe_store::Message],
    max: u32,
) -> ChatRequest {
    let system = format!(
        "你是对话摘要助手。请把“已有摘要”和“新的对话记录”合并成一份新的摘要，供之后继续对话时参考。\n\
         要求：\n\
         - 保留用户说过的具体事实：姓名、身份、经历、身边的人、日期、数字、目标、承诺、偏好和反复出现的困扰；已有摘要里的事实不要丢。\n\
         - 保留已经达成的结论和约定的下一步；省略寒暄和重复的内容。\n\
         - 不要编造，不要评价，用第三人称（“用户……”）。\n\
         - 每条一行，以“- ”开头；总长度不超过 {max} 个 token。\n\
         - 使用对话本身的语言。只输出摘要本身。"
    );
    let mut transcript = String::new();
    for row in rows {
        let who = match row.role {
            Role::User => "用户",
            Role::Assistant => "助手",
            Role::Tool | Role::System => continue,
        };
        let text = one_line(&row.content);
        if !text.is_empty() {
            transcript.push_str(&format!("{who}：{}\n", cut_chars(&text, 600)));
        }
    }
    let transcript = head_and_tail(tk, transcript.trim_end(), 4 * max);
    let user = format!("已有摘要：\n{}\n\n新的对话记录：\n{transcript}", old.unwrap_or("（无）"));
    ChatRequest {
        messages: vec![Message::system(system), Message::user(user)],
        tools: Vec::new(),
        params: Params {
            temperature: Some(0.2),
            max_tokens: Some(max + max / 2),
            ..Params::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::row;
    use serde_json::json;

    #[test]
    fn digest_keeps_openings_and_names_the_tools() {
        let mut reply = row(Role::Assistant, "好的，我帮你记下来了。接下来我们看看目标。");
        reply.tool_calls = Some(json!([{"id": "1", "name": "write_state", "arguments": "{}"}]));
        let rows = vec![
            row(Role::User, "我叫林晓，在杭州做设计师。\n最近很想换工作。"),
            reply,
            row(Role::Tool, "{\"status\":\"success\"}"),
        ];
        assert_eq!(
            digest(&rows),
            [
                "- 用户：我叫林晓，在杭州做设计师。最近很想换工作。",
                "- 助手：好的，我帮你记下来了。接下来我们看看目标。（调用了 write_state）"
            ]
        );
    }

    #[test]
    fn bounding_drops_replies_first_and_keeps_the_first_fact() {
        let tk = Tokenizer::shared().unwrap();
        let mut lines = vec!["- 用户：我对花生严重过敏。".to_string()];
        for i in 0..60 {
            lines.push(format!("- 助手：第 {i} 次回复，讲了一些建议。"));
            lines.push(format!("- 用户：第 {i} 件日常小事，今天也还行。"));
        }
        let out = merge(tk, None, &lines, 200);
        assert!(tk.count(&out) <= 200);
        assert!(out.starts_with("- 用户：我对花生严重过敏。"), "{out}");
        assert!(!out.contains("助手"), "reply lines go first: {out}");
        assert!(out.contains("第 59 件日常小事"), "the latest survive too: {out}");
    }
}
