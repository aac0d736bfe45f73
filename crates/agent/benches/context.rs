//! Criterion benchmark of the context builder: building the phase-1 and phase-2 prompts
//! before a model call (warm caches; a new message, as on the first call of a turn; after a
//! state write, as on the second call of a turn), reading the history window of a
//! 10,000-message conversation, raw tokenisation, and the registry's case matching the
//! phase-2 prompt depends on. Figures go in docs/performance.md.

#![allow(clippy::expect_used)] // benchmark set-up: a failure should abort loudly

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use vibe_agent::tools::ToolRegistry;
use vibe_context::{ContextBuilder, ContextLimits, PromptRequest, Tokenizer};
use vibe_skills::{Registry, RegistryConfig};
use vibe_store::{LOCAL_USER, NewMessage, Role, Store};
use vibe_wire::Phase;

fn setup() -> (ContextBuilder, Arc<Store>, Arc<Registry>) {
    let store = Arc::new(Store::open_in_memory().expect("in-memory store"));
    let config =
        RegistryConfig { builtin: vibe_skills::builtin_dir(), ..RegistryConfig::default() };
    let skills = Arc::new(Registry::open(config));
    let builder = ContextBuilder::new(store.clone(), skills.clone(), ContextLimits::default())
        .expect("builder");
    (builder, store, skills)
}

fn prompts(c: &mut Criterion) {
    let (b, store, skills) = setup();
    store
        .write_state(LOCAL_USER, "lifecoach", "north_star", json!({"vision": "自由创作"}))
        .expect("write");
    for i in 0..30 {
        store
            .append_to_list(
                LOCAL_USER,
                "lifecoach",
                "journal",
                json!({"day": i, "note": "今天完成了晨跑。"}),
                100,
            )
            .expect("append");
    }
    let registry = ToolRegistry::with_builtins();
    let p1_defs = registry.tools_for(&skills, None).definitions();
    let p2_defs = registry.tools_for(&skills, Some("lifecoach")).definitions();
    let message = "第 3 天：今天完成了晨跑，记一下进展。";
    let phase1 = PromptRequest {
        user: LOCAL_USER,
        user_message: message,
        tools: &p1_defs,
        ..PromptRequest::default()
    };
    let phase2 = PromptRequest { active_skill: Some("lifecoach"), tools: &p2_defs, ..phase1 };
    c.bench_function("context/registry_match_cases", |bench| {
        bench.iter(|| skills.match_cases("lifecoach", message, 2).expect("cases"))
    });
    c.bench_function("context/phase1_prompt", |bench| {
        bench.iter(|| b.system_prompt(&phase1).expect("prompt"))
    });
    c.bench_function("context/phase2_prompt_lifecoach", |bench| {
        bench.iter(|| b.system_prompt(&phase2).expect("prompt"))
    });
    let mut n = 0u64;
    c.bench_function("context/phase2_prompt_new_message", |bench| {
        bench.iter(|| {
            n += 1;
            let text = format!("第 {n} 天：今天完成了晨跑，记一下进展。");
            b.system_prompt(&PromptRequest { user_message: &text, ..phase2 }).expect("prompt")
        })
    });
    c.bench_function("context/phase2_prompt_after_state_write", |bench| {
        bench.iter(|| {
            n += 1;
            store
                .write_state(LOCAL_USER, "lifecoach", "progress", json!({"streak": n}))
                .expect("write");
            b.system_prompt(&phase2).expect("prompt")
        })
    });
    c.bench_function("context/state_write_alone", |bench| {
        bench.iter(|| {
            n += 1;
            store
                .write_state(LOCAL_USER, "lifecoach", "progress", json!({"streak": n}))
                .expect("write")
        })
    });
}

fn history(c: &mut Criterion) {
    let (b, store, _) = setup();
    let conv = store.create_conversation(LOCAL_USER, None).expect("conversation");
    for i in 0..10_000 {
        let role = if i % 2 == 0 { Role::User } else { Role::Assistant };
        let msg = NewMessage {
            token_count: 40,
            ..NewMessage::text(role, format!("第 {i} 条消息：今天过得还行。"))
        };
        store.append_message(&conv.id, msg).expect("append");
    }
    c.bench_function("context/history_phase2_of_10000", |bench| {
        bench.iter(|| b.history(&conv, Phase::Phase2, None).expect("history"))
    });
}

fn tokenizer(c: &mut Criterion) {
    let tk = Tokenizer::shared().expect("tokenizer");
    let text = "今天完成了晨跑，感觉精神好多了。Then I wrote 500 words of my novel. ".repeat(30);
    c.bench_function("context/tokenize_2kb_uncached", |bench| {
        bench.iter(|| tk.count_uncached(&text))
    });
    c.bench_function("context/tokenize_2kb_cached", |bench| bench.iter(|| tk.count(&text)));
    // A coach's answer: long runs of Chinese between punctuation (the merge loop's worst case).
    let answer = "好的，我已经把今天的进展记下来了。你连续坚持了好几天，这很不容易。接下来我们可以一起看看：\
这周最想守住的一个小习惯是什么？它为什么对你重要？如果明天状态不好，最小可以做到什么程度？\
把答案写下来，我们下次聊的时候一起回顾。你也可以随时告诉我今天的感受，我会帮你整理成日志。";
    c.bench_function("context/tokenize_answer_zh_uncached", |bench| {
        bench.iter(|| tk.count_uncached(answer))
    });
}

criterion_group!(benches, prompts, history, tokenizer);
criterion_main!(benches);
