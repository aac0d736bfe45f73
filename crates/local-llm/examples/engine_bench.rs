//! The embedded engine's benchmark (opt-in, not part of CI; figures in docs/performance.md):
//! load time, first-token latency and prompt tokens/s of a ~1,000-token prompt, generation
//! tokens/s, and the process's peak memory, for one GGUF file.
//!
//! Run it through scripts/bench-local-model.sh, which builds it with the engine's package set
//! (another set compiles llama.cpp again) and compares with llama.cpp's `llama-bench`; or,
//! once built, `LD_LIBRARY_PATH=$CARGO_TARGET_DIR/release \
//! $CARGO_TARGET_DIR/release/examples/engine_bench [MODEL.gguf] [THREADS] [RUNS]`.
//!
//! Without a model path it measures the tiny test model. Every run's prompt starts with its
//! own number, so no run reuses another's prompt state. `BENCH_CONTEXT` sets the context cap
//! (default 4096) and `BENCH_REPEAT` how often the prompt's sentence is repeated (default 30,
//! about 1,000 tokens; 240 makes an 8k-token conversation): the context the engine allocated
//! for it is printed with the peak memory.

use std::time::{Duration, Instant};

use futures::StreamExt as _;
use serde_json::json;
use vibe_llm::{ChatModel, ChatRequest, Delta, Message, Params, ToolDef, action_schema};
use vibe_local_llm::{LocalConfig, LocalModel};

const PROMPT_WORDS: &str = "Last week I slept badly, worked late, skipped the gym twice and felt guilty about it; \
    my sister called and we talked about our parents, which helped. ";

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tiny-q8_0.gguf").to_string()
    });
    let threads: u32 = args.next().map_or(Ok(2), |t| t.parse())?;
    let runs: usize = args.next().map_or(Ok(3), |r| r.parse())?;
    let schema = match args.next().as_deref() {
        None => None,
        Some("grammar") => Some(bench_schema()),
        Some(other) => {
            return Err(format!("unknown mode {other:?}; the only one is `grammar`").into());
        }
    };
    if let Some(schema) = &schema {
        let text = schema.to_string();
        let t0 = Instant::now();
        let gbnf = llama_cpp_2::json_schema_to_grammar(&text)?;
        println!(
            "action schema ({} bytes) to GBNF ({} bytes, {} rules) in {:.2} ms",
            text.len(),
            gbnf.len(),
            gbnf.lines().count(),
            ms(t0.elapsed())
        );
    }

    let started = Instant::now();
    let context_cap: u32 = std::env::var("BENCH_CONTEXT").map_or(Ok(4096), |c| c.parse())?;
    let repeat: usize = std::env::var("BENCH_REPEAT").map_or(Ok(30), |r| r.parse())?;
    let config =
        LocalConfig { threads: Some(threads), context_cap, ..LocalConfig::new(&path, "bench") };
    let model = LocalModel::open(config)?;
    let info = model.info().await?;
    let load = started.elapsed();
    println!(
        "model {path}\n{} parameters, {:.1} MB, context {}, {} threads, loaded in {:.0} ms",
        info.parameters,
        info.size_bytes as f64 / 1e6,
        info.context_tokens,
        info.threads,
        ms(load)
    );

    let mut first_tokens = Vec::new();
    let mut prompt_rates = Vec::new();
    let mut gen_rates = Vec::new();
    for run in 0..runs {
        let request = ChatRequest {
            messages: vec![
                Message::system(format!("Run {run}. You are a warm, practical life coach.")),
                Message::user(PROMPT_WORDS.repeat(repeat)),
            ],
            params: Params {
                temperature: Some(0.0),
                max_tokens: Some(128),
                response_schema: schema.clone(),
                ..Params::default()
            },
            ..ChatRequest::default()
        };
        let t0 = Instant::now();
        let mut first = None;
        let mut usage = None;
        let mut stream = model.stream(request);
        while let Some(delta) = stream.next().await {
            match delta? {
                Delta::Text { .. } | Delta::Reasoning { .. } if first.is_none() => {
                    first = Some(t0.elapsed());
                }
                Delta::Usage { usage: u } => usage = Some(u),
                _ => {}
            }
        }
        let total = t0.elapsed();
        let (Some(first), Some(usage)) = (first, usage) else {
            return Err("the model answered nothing".into());
        };
        let generating = total.saturating_sub(first).as_secs_f64();
        first_tokens.push(first);
        prompt_rates.push(usage.prompt_tokens as f64 / first.as_secs_f64());
        gen_rates.push((usage.completion_tokens.saturating_sub(1)) as f64 / generating);
        println!(
            "run {run}: prompt {} tokens, first token {:.0} ms ({:.0} prompt tokens/s), {} tokens generated at {:.1} tokens/s",
            usage.prompt_tokens,
            ms(first),
            prompt_rates[run],
            usage.completion_tokens,
            gen_rates[run]
        );
    }
    println!(
        "median: first token {:.0} ms, prompt {:.0} tokens/s, generation {:.1} tokens/s, context allocated {} of {} tokens, peak memory (VmHWM) {}",
        ms(median(&mut first_tokens)),
        median(&mut prompt_rates),
        median(&mut gen_rates),
        model.stats().context_tokens_allocated,
        info.context_tokens,
        peak_memory()
    );
    Ok(())
}

/// Structured mode's action schema for two tools like the app's.
fn bench_schema() -> serde_json::Value {
    let tool = |name: &str, parameters: serde_json::Value| ToolDef {
        name: name.into(),
        description: String::new(),
        parameters: parameters.into(),
    };
    action_schema(&[
        tool(
            "draw_tarot",
            json!({"type": "object", "properties": {
                "spread": {"type": "string", "enum": ["single", "three"]},
                "question": {"type": "string", "maxLength": 500}
            }, "required": ["spread"]}),
        ),
        tool(
            "write_state",
            json!({"type": "object", "properties": {
                "section": {"type": "string"},
                "data": {"type": "object"}
            }, "required": ["section", "data"]}),
        ),
    ])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median<T: PartialOrd + Copy>(values: &mut [T]) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    values[values.len() / 2]
}

fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l[6..].trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}
