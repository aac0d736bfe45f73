//! The protocol section of the system prompt for the current step (docs/design.md#protocols:
//! never trimmed or compacted away, counted in the phase-2 budget): the step's goal, opening,
//! questions, fields to collect, completion rule, what is collected so far, the principles,
//! and what to do first on this turn (resume recap, timeout question, reminder answer).

use std::fmt::Write;

use serde_json::Value;
use vibe_skills::{FieldType, Protocol};
use vibe_store::{ProtocolRun, step_key};

use super::engine::REMINDERS_KEY;

/// What the coach must do first on this turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnNote {
    /// Nothing special: continue the step.
    Continue,
    /// The protocol just started on this turn.
    Started,
    /// The person is back after a gap: recap, then continue.
    Recap { minutes: i64 },
    /// The gap was longer than the idle timeout: ask continue-or-restart before anything else.
    AskContinueOrRestart { minutes: i64 },
}

/// The protocol section for `run` at its current step.
pub fn protocol_prompt(
    def: &Protocol,
    run: &ProtocolRun,
    note: &TurnNote,
    reminder: Option<&str>,
) -> String {
    let mut out = String::new();
    let n = run.step as usize;
    let Some(step) = def.steps.get(n - 1) else { return out };
    let _ = writeln!(
        out,
        "## 进行中的协议：{}（{} v{}）· 第 {}/{} 步「{}」",
        def.title, def.id, def.version, run.step, run.total_steps, step.title
    );
    if let Some(phase) = &step.phase {
        let _ = writeln!(out, "阶段：{phase}");
    }
    let _ = writeln!(out, "\n### 这一轮先做什么");
    let _ = writeln!(out, "{}", first_move(note, step.opening.trim()));
    if let Some(r) = reminder {
        let _ = writeln!(out, "{r}");
    }
    let _ = writeln!(out, "\n### 本步目标\n{}", step.goal.trim());
    let _ = writeln!(out, "\n### 开场\n{}", step.opening.trim());
    if !step.questions.is_empty() {
        let _ = writeln!(out, "\n### 可以问的问题（一次一到两个）");
        for q in &step.questions {
            let _ = writeln!(out, "- {q}");
        }
    }
    let _ = writeln!(
        out,
        "\n### 要收集的字段（收齐后调用 advance_protocol_step，step_data 用用户原话）"
    );
    for f in &step.fields {
        let need = if f.required { "必填" } else { "可选" };
        let _ = writeln!(out, "- `{}`（{}，{need}）：{}", f.key, type_zh(f.kind), f.description);
    }
    let _ = writeln!(out, "\n### 完成标准\n{}", step.done_when.trim());
    let collected = collected_so_far(def, run);
    if !collected.is_empty() {
        let _ = writeln!(out, "\n### 已收集的内容\n{collected}");
    }
    if !def.principles.is_empty() {
        let _ = writeln!(out, "\n### 原则（每一步都适用）");
        for p in &def.principles {
            let _ = writeln!(out, "- {p}");
        }
    }
    let _ = write!(
        out,
        "\n用户想停下时调用 cancel_protocol（已说的内容会保留）。用用户正在使用的语言回复。"
    );
    out
}

fn first_move(note: &TurnNote, opening: &str) -> String {
    match note {
        TurnNote::Continue => "继续当前步骤：根据用户的回答追问或复述，字段收齐就保存。".into(),
        TurnNote::Started => {
            format!("协议刚刚开始。简短说明接下来的安排，然后用本步的开场提问：{opening}")
        }
        TurnNote::Recap { minutes } => format!(
            "用户离开了约 {} 后回来。先用一两句话回顾他已经完成的步骤和当前这一步的位置，再继续当前步骤。",
            duration_zh(*minutes)
        ),
        TurnNote::AskContinueOrRestart { minutes } => format!(
            "用户离开了约 {}（超过了空闲时限）。先简短回顾进度，然后只问一个问题：继续当前这一步，还是把这一步从头再来？\
             在用户回答之前不要推进、不要调用 advance_protocol_step。",
            duration_zh(*minutes)
        ),
    }
}

fn duration_zh(minutes: i64) -> String {
    if minutes >= 120 { format!("{} 小时", minutes / 60) } else { format!("{minutes} 分钟") }
}

fn type_zh(kind: FieldType) -> &'static str {
    match kind {
        FieldType::Text => "文本",
        FieldType::List => "文本列表",
        FieldType::Number => "数字",
        FieldType::Boolean => "是/否",
    }
}

/// Completed steps (summary and data) and reminder answers of the current step.
fn collected_so_far(def: &Protocol, run: &ProtocolRun) -> String {
    let mut out = String::new();
    for (i, step) in def.steps.iter().enumerate() {
        let key = step_key(i as u32 + 1);
        let Some(data) = run.data.get(&key) else { continue };
        let summary = run.summaries.get(&key).and_then(Value::as_str);
        let _ = write!(out, "- 第 {} 步「{}」", i + 1, step.title);
        if let Some(s) = summary {
            let _ = write!(out, "：{s}");
        }
        let _ = writeln!(out);
        if let Value::Object(map) = data {
            for (k, v) in map {
                if k == REMINDERS_KEY {
                    if let Value::Object(answers) = v {
                        for (at, a) in answers {
                            let answer = a.get("answer").and_then(Value::as_str).unwrap_or("");
                            let _ = writeln!(out, "  - 提醒 {at} 的回答：{answer}");
                        }
                    }
                    continue;
                }
                let _ = writeln!(out, "  - {k}: {}", show(v));
            }
        }
    }
    out.trim_end().to_string()
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(show).collect::<Vec<_>>().join("；"),
        other => other.to_string(),
    }
}
