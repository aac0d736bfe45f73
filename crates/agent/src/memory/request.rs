//! The extraction request: the instructions (Chinese, like the coach's other prompts; items
//! are written in the person's language), the live items the answer may merge into or
//! replace, and the new messages numbered by id. Messages the safety screen marked — and the
//! coach's replies in the same run — are left out before this is built.

use serde_json::{Value, json};
use vibe_llm::{ChatRequest, Message, Params};
use vibe_store::{MemoryItem, PendingMessage, Role};
use vibe_wire::command::MemoryKind;

/// Longest message text put in the request (characters); the rest is cut.
const MESSAGE_CHARS: usize = 1200;

/// Most live items listed for merging (the newest).
pub(crate) const ITEMS_LISTED: usize = 80;

const INSTRUCTIONS: &str = r#"你是用户的记忆整理员。阅读下面的新消息，找出关于用户本人、以后的对话中值得记住的内容，分为五类：
- facts：稳定的事实（职业、所在城市、家庭、重要经历）
- concerns：担忧
- goals：目标
- patterns：反复出现的想法、情绪或行为模式
- pain_points：让用户痛苦或卡住的地方
规则：
- 只记用户（标为“用户”的消息）自己说出的内容；教练的消息只作上下文，不能作来源。
- 每一条都必须写出来源 sources：用户消息的编号列表，只能用下面列出的编号。
- text 用用户使用的语言，写成一句简短的陈述；confidence 是 0 到 1 之间的数，表示把握。
- 与“已有记忆”中某条意思相同：填 same_as 为那一条的 id，不要新建。
- 与“已有记忆”中某条矛盾（情况变了）：填 replaces 为那一条的 id，text 写新的情况。
- 不要猜测，不要记录诊断、药物、他人的隐私细节。没有值得记住的内容时返回 {"items": []}。
- 只输出一个 JSON 对象，不要任何其他文字，字段只有下面这些：
{"items": [{"kind": "facts", "text": "…", "confidence": 0.8, "sources": [12], "same_as": null, "replaces": null}]}"#;

fn cut(text: &str) -> String {
    let mut out: String = text.chars().take(MESSAGE_CHARS).collect();
    if text.chars().count() > MESSAGE_CHARS {
        out.push('…');
    }
    out.replace('\n', " ")
}

/// The request for one pass over `messages` with `items` (newest first) to merge into.
pub fn extraction_request(items: &[MemoryItem], messages: &[PendingMessage]) -> ChatRequest {
    let mut body = String::from("已有记忆：\n");
    if items.is_empty() {
        body.push_str("（无）\n");
    }
    for item in items.iter().take(ITEMS_LISTED) {
        body.push_str(&format!("- id={} [{}] {}\n", item.id, item.kind, cut(&item.text)));
    }
    body.push_str("\n新消息：\n");
    for m in messages {
        let who = if m.role == Role::User { "用户" } else { "教练" };
        body.push_str(&format!("[#{} {who}] {}\n", m.id, cut(&m.content)));
    }
    ChatRequest {
        messages: vec![Message::system(INSTRUCTIONS), Message::user(body)],
        tools: Vec::new(),
        params: Params {
            temperature: Some(0.0),
            response_schema: Some(answer_schema()),
            ..Params::default()
        },
    }
}

/// The answer's shape as a JSON Schema (what the instructions ask for), so a model that can
/// constrain its decoding to it (the embedded engine, local servers: docs/local-model.md)
/// answers with nothing else; `answer.rs` still checks every answer.
fn answer_schema() -> Value {
    let kinds: Vec<&str> = MemoryKind::ALL.iter().map(|k| k.as_str()).collect();
    json!({
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "kind": {"enum": kinds},
                        "text": {"type": "string"},
                        "confidence": {"type": "number"},
                        "sources": {"type": "array", "items": {"type": "integer"}},
                        "same_as": {"type": ["string", "null"]},
                        "replaces": {"type": ["string", "null"]}
                    },
                    "required": ["kind", "text", "confidence", "sources", "same_as", "replaces"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["items"],
        "additionalProperties": false
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// Every kind the schema lets a constrained model write is one the answer reader accepts,
    /// and an answer of exactly the schema's shape (every field, ids as strings or null) reads.
    #[test]
    fn the_answer_schema_allows_only_what_the_reader_accepts() {
        let request = extraction_request(&[], &[]);
        let schema = request.params.response_schema.expect("a response schema");
        let item = &schema["properties"]["items"]["items"];
        let kinds: Vec<&str> = item["properties"]["kind"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|k| k.as_str())
            .collect();
        assert_eq!(kinds, MemoryKind::ALL.map(MemoryKind::as_str));
        let required: Vec<&str> =
            item["required"].as_array().unwrap().iter().flat_map(|k| k.as_str()).collect();
        let sources: HashSet<i64> = [7].into();
        for kind in kinds {
            let answer = json!({"items": [{
                "kind": kind, "text": "在杭州工作", "confidence": 0.8, "sources": [7],
                "same_as": null, "replaces": null
            }]});
            let fields: Vec<&str> =
                answer["items"][0].as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(fields.len(), required.len(), "{fields:?} vs {required:?}");
            let changes = super::super::parse_answer(&answer.to_string(), &sources, &[])
                .unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(changes.len(), 1, "{kind}");
        }
    }
}
