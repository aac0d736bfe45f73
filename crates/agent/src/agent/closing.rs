//! The graceful end of a run stopped by a budget or guard (docs/design.md#budgets): the person
//! always hears what was done and what comes next, never silence. First choice is one closing model
//! call without tools, told why; when that cannot be made, a fixed text in the person's language
//! (Chinese when their message has CJK characters, else English).

use vibe_wire::StopReason;

/// Appended to the system prompt of the closing call.
pub fn closing_instruction(reason: StopReason) -> String {
    format!(
        "\n\n## 本轮即将结束\n本次回复的处理预算已用完（{}）。不要再调用任何工具。请用用户使用的语言，简短地：\
         1) 说明到目前为止已经完成了什么；2) 说明还没完成的部分和建议的下一步（例如请用户回复“继续”）。",
        describe_zh(reason)
    )
}

fn describe_zh(reason: StopReason) -> &'static str {
    match reason {
        StopReason::MaxRounds => "思考轮数已达上限",
        StopReason::MaxToolCalls => "工具调用次数已达上限",
        StopReason::MaxScriptRuns => "脚本运行次数已达上限",
        StopReason::MaxContextTokens => "上下文长度已达上限",
        StopReason::RepeatedToolFailure => "同一个工具连续失败了三次",
        _ => "已停止",
    }
}

fn describe_en(reason: StopReason) -> &'static str {
    match reason {
        StopReason::MaxRounds => "I reached the limit of thinking rounds for one reply",
        StopReason::MaxToolCalls => "I reached the limit of tool calls for one reply",
        StopReason::MaxScriptRuns => "I reached the limit of script runs for one reply",
        StopReason::MaxContextTokens => "our conversation no longer fits my context window",
        StopReason::RepeatedToolFailure => "the same tool failed three times in a row",
        _ => "I had to stop",
    }
}

fn has_cjk(text: &str) -> bool {
    text.chars().any(|c| matches!(c as u32, 0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x3040..=0x30FF | 0xAC00..=0xD7AF))
}

/// The fixed closing text: why it stopped, what was done (the tools that ran), what is next.
pub fn fallback_text(reason: StopReason, user_message: &str, done: &[String]) -> String {
    let mut names: Vec<&str> = done.iter().map(String::as_str).collect();
    names.dedup();
    if has_cjk(user_message) {
        let did = if names.is_empty() {
            "还没来得及完成具体步骤".to_string()
        } else {
            format!("已完成：{}", names.join("、"))
        };
        format!(
            "我先在这里停一下：{}。{}。如果你愿意，回复“继续”，我们接着往下走。",
            describe_zh(reason),
            did
        )
    } else {
        let did = if names.is_empty() {
            "I had not finished any step yet".to_string()
        } else {
            format!("So far I did: {}", names.join(", "))
        };
        format!(
            "Let me pause here: {}. {}. Reply \"continue\" and we will pick up from there.",
            describe_en(reason),
            did
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_speaks_the_persons_language_and_lists_what_was_done() {
        let zh = fallback_text(
            StopReason::MaxRounds,
            "帮我规划一下",
            &["read_state".into(), "write_state".into()],
        );
        assert!(
            zh.contains("思考轮数")
                && zh.contains("read_state、write_state")
                && zh.contains("继续"),
            "{zh}"
        );
        let en = fallback_text(StopReason::RepeatedToolFailure, "plan my week", &[]);
        assert!(en.contains("failed three times") && en.contains("continue"), "{en}");
    }
}
