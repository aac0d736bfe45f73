//! `vibe bench agent`: the end-to-end cost of one chat turn — two model calls from an
//! in-process scripted model (a `write_state` tool call, then a ~200-character answer), one
//! tool execution, everything persisted and audited — over a conversation that already holds
//! N messages. Reports median and p95 per-turn time, database growth per turn and peak RSS.
//! Figures go in docs/performance.md; tests never assert timings. `vibe bench insights` is
//! `insights`; `vibe bench local` (the embedded engine over a scripted conversation, and
//! llama-server beside it) is `local`.

mod insights;
mod local;
mod local_record;
mod local_replay;

pub use insights::{InsightsBench, bench_insights};
pub use local::{LOCAL_BENCH_TURNS, LocalBenchOptions, Segment, bench_local, run_segment};
pub use local_record::{LocalBenchReport, LocalTurn, RequestFigures, WarmUpFigures};

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use tokio_util::sync::CancellationToken;
use vibe_llm::ScriptedModel;
use vibe_store::{LOCAL_USER, NewMessage, Role};
use vibe_wire::command::SendMessageRequest;

use crate::CoreError;
use crate::app::{App, AppError, AppPaths, EphemeralKeys, Injections, Overrides};
use vibe_agent::agent::ApprovalPolicy;

/// The answer text: about 200 characters.
const ANSWER: &str = "好的，我已经把今天的进展记下来了。你连续坚持了好几天，这很不容易。接下来我们可以一起看看：\
这周最想守住的一个小习惯是什么？它为什么对你重要？如果明天状态不好，最小可以做到什么程度？\
把答案写下来，我们下次聊的时候一起回顾。你也可以随时告诉我今天的感受，我会帮你整理成日志。";

/// The scripted model's responses for `turns` turns, in order: each turn a `write_state` call
/// and then an answer, both different every turn (so nothing is counted or cached as if the
/// person and the coach repeated themselves).
fn script(turns: usize) -> String {
    let mut yaml = String::from("model: bench\nmode: ordered\nchunk_chars: 40\nresponses:\n");
    for n in 0..turns {
        yaml.push_str(&format!(
            "  - tool_calls:\n      - name: write_state\n        arguments: {{section: progress, data: {{streak: {n}, note: \"坚持晨跑第 {n} 天\"}}}}\n"
        ));
        yaml.push_str(&format!(
            "  - text: \"第 {n} 天，{ANSWER}\"\n    usage: {{prompt_tokens: 900, completion_tokens: 120}}\n"
        ));
    }
    yaml
}

/// The skill whose phase-2 prompt and `write_state` tool every turn uses.
const BENCH_SKILL: &str = "lifecoach";

/// Turns run before measuring, to warm caches (tokenizer, prepared statements, skill parts).
const WARM_UP: usize = 3;

/// One measurement (the wire's report type: `vibe bench agent --json` prints it).
pub use vibe_wire::command::AgentBench;

/// Measure `turns` turns after `history` prior messages, in a fresh data dir under `work`,
/// its database encrypted as the app's default (a random key, kept in memory here) unless
/// `clear`. `turns` must be at least 1.
pub async fn bench_agent(
    work: &Path,
    history: usize,
    turns: usize,
    clear: bool,
) -> Result<AgentBench, AppError> {
    if turns == 0 {
        return Err(AppError::InvalidInput(
            "the agent benchmark needs at least 1 measured turn".into(),
        ));
    }
    let io = |action: &'static str, err| vibe_runlog::RunLogError::AuditIo {
        action,
        path: work.to_path_buf(),
        err,
    };
    std::fs::create_dir_all(work).map_err(|e| io("create", e))?;
    let model = ScriptedModel::from_yaml(&script(WARM_UP + turns), "bench script")
        .map_err(|e| CoreError::InvalidRequest(e.to_string()))?;
    // As in the desktop app: skill folders are watched (their parts served from memory) and
    // run folders are made ahead of turns.
    let overrides = Overrides { long_lived: true, no_encryption: clear, ..Overrides::default() };
    let injections = Injections {
        model: Some(Arc::new(model)),
        // The script answers the turns only: no memory extraction between them.
        memory: Some(vibe_agent::memory::MemorySettings { quiet_minutes: 0, every_turns: 0 }),
        ..Injections::default()
    };
    let app = App::open_with_injections(
        AppPaths::new(work),
        overrides,
        Arc::new(EphemeralKeys::default()),
        injections,
    )?;
    let store = app.store().clone();
    app.prepare_chat()?;
    // Without the skill every turn would be a cheaper phase-1 turn whose tool call fails:
    // another workload than the one the figures describe.
    app.skills().skill(BENCH_SKILL).map_err(|e| {
        CoreError::InvalidRequest(format!(
            "the agent benchmark needs the built-in `{BENCH_SKILL}` skill ({e}); \
             this build has no built-in skills"
        ))
    })?;

    let conversation = store.create_conversation(LOCAL_USER, Some("bench"))?;
    store.set_conversation_skill(&conversation.id, Some(BENCH_SKILL), None)?;
    for i in 0..history {
        let role = if i % 2 == 0 { Role::User } else { Role::Assistant };
        let text = if role == Role::User {
            "今天感觉有点累，但还是完成了晨跑。"
        } else {
            ANSWER
        };
        store.append_message(
            &conversation.id,
            NewMessage { token_count: 60, ..NewMessage::text(role, text) },
        )?;
    }
    let approver = Arc::new(ApprovalPolicy::DenyAll);
    let turn = |n: usize| {
        SendMessageRequest::say(
            Some(conversation.id.clone()),
            format!("第 {n} 天：今天完成了晨跑，记一下进展。"),
        )
    };
    for n in 0..WARM_UP {
        app.send_message_with(turn(n), Vec::new(), approver.clone(), CancellationToken::new())
            .await?;
    }
    // Every turn writes the state through the skill's `write_state` tool: check that it did.
    let written = store.read_state(LOCAL_USER, BENCH_SKILL, None)?;
    if written.data["progress"]["streak"] != WARM_UP - 1 {
        return Err(CoreError::InvalidRequest(format!(
            "the agent benchmark's warm-up turns did not write the `{BENCH_SKILL}` state \
             (found {}); the measured turns would not be the described workload",
            written.data
        ))
        .into());
    }
    let size_before = store.checkpointed_size()?;
    let cpu_before = cpu_ms();
    let mut times = Vec::with_capacity(turns);
    for n in WARM_UP..WARM_UP + turns {
        let start = Instant::now();
        let result = app
            .send_message_with(turn(n), Vec::new(), approver.clone(), CancellationToken::new())
            .await?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        if result.stop_reason != vibe_wire::StopReason::Completed {
            return Err(CoreError::InvalidRequest(format!(
                "bench turn {n} ended with {}",
                result.stop_reason.as_str()
            ))
            .into());
        }
    }
    let cpu_after = cpu_ms();
    let size_after = store.checkpointed_size()?;
    times.sort_by(f64::total_cmp);
    let pick = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    Ok(AgentBench {
        encrypted: !clear,
        history: history as u64,
        turns: turns as u64,
        median_ms: pick(0.5),
        p95_ms: pick(0.95),
        db_growth_bytes_per_turn: (size_after.saturating_sub(size_before)) as f64
            / turns.max(1) as f64,
        peak_rss_kb: peak_rss_kb(),
        cpu_ms_per_turn: cpu_before
            .zip(cpu_after)
            .filter(|(before, after)| after - before >= MIN_CPU_MS)
            .map(|(before, after)| (after - before) / turns.max(1) as f64),
    })
}

/// CPU time used by this process so far (Linux `/proc/self/stat`: user + system time).
fn cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks * 1000.0 / CLOCK_TICKS_PER_SECOND)
}

/// `sysconf(_SC_CLK_TCK)` on Linux (100 on every mainstream architecture).
const CLOCK_TICKS_PER_SECOND: f64 = 100.0;
/// Less CPU time than this (20 clock ticks) is too coarse to report.
const MIN_CPU_MS: f64 = 200.0;

/// Peak resident set size of this process (Linux `VmHWM`).
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn zero_turns_are_refused_with_a_message_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let err = bench_agent(dir.path(), 0, 0, false).await.unwrap_err();
        assert!(err.to_string().contains("at least 1 measured turn"), "{err}");
    }
}
