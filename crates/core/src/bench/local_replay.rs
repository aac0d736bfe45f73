//! The second half of `vibe bench local`: the requests the embedded engine answered, replayed
//! in order against llama.cpp's own `llama-server` through the `llama.cpp server` preset (the
//! OpenAI-compatible client, the server's prompt cache on, answers capped as the engine's), with
//! the tokens it evaluated and the time its prefill took read from its `/metrics`
//! (`vibe_llm::measure::llama_server_prompt_totals`; `--metrics` on); and the ratios of issue
//! 32's goals. No timing is judged here: figures only.

use std::sync::{Arc, Mutex};

use futures::StreamExt as _;
use serde_json::json;
use vibe_llm::{ChatModel, LlmSettings};

use super::local_record::LocalTurn;
use crate::CoreError;
use crate::app::AppError;
use vibe_llm::measure::{Log, Recorder, llama_server_prompt_totals};

/// Send every recorded request of `turns` to llama-server at `base_url` (`…/v1`), in order,
/// with answers capped at `answer_tokens` as the engine's were, and put the figures of each
/// turn's first request in `LocalTurn::server` and its prefill time in
/// `LocalTurn::server_prefill_ms`.
pub(crate) async fn replay(
    base_url: &str,
    answer_tokens: u32,
    turns: &mut [LocalTurn],
) -> Result<(), AppError> {
    let settings: LlmSettings = serde_json::from_value(json!({
        "preset": "llamacpp",
        "base_url": base_url,
        "model": "bench",
        // The requests are sent as the engine got them: the structured-action adapter has
        // already put the tools in the prompt and the action's schema in the parameters.
        "tool_mode": "native",
        "temperature": 0.0,
        "max_tokens": answer_tokens,
    }))
    .map_err(|e| CoreError::InvalidRequest(format!("llama-server settings: {e}")))?;
    let server = vibe_llm::build_model_with(&settings, None, None)?.model;
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let recorder = Recorder::new(server, log.clone(), Arc::new(|| None));
    for turn in turns.iter_mut() {
        for (i, sent) in turn.sent.iter().enumerate() {
            let before = llama_server_prompt_totals(base_url).await;
            let mut stream = recorder.stream(sent.request.clone());
            while stream.next().await.is_some() {}
            drop(stream);
            let after = llama_server_prompt_totals(base_url).await;
            let mut figures = log
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .pop()
                .map(|r| r.figures)
                .unwrap_or_default();
            // The server's streamed answer carries no usage: the prompt is the same request
            // the engine counted, with the same model's vocabulary.
            if figures.prompt_tokens == 0 {
                figures.prompt_tokens = sent.figures.prompt_tokens;
            }
            let mut prefill_ms = None;
            if let (Some(b), Some(a)) = (before, after) {
                let evaluated = a.tokens.saturating_sub(b.tokens);
                figures.evaluated_tokens = Some(evaluated);
                figures.reused_tokens = Some(figures.prompt_tokens.saturating_sub(evaluated));
                prefill_ms = Some((a.seconds - b.seconds).max(0.0) * 1000.0);
            }
            if i == 0 {
                turn.server = Some(figures);
                turn.server_prefill_ms = prefill_ms;
            }
        }
    }
    Ok(())
}

/// The goals' ratios (issue 32): each later (or warmed-up) turn's time to first token against
/// the limit — the time llama.cpp needs to prefill only the turn's new tokens — and against
/// llama-server on the same request. The new tokens are the fewer of what the engine and
/// llama-server each evaluated (what perfect reuse leaves). Their time, with llama-server
/// beside the run, is at llama-server's own prefill rate on that request (llama.cpp's decode
/// alone, at that depth of the context: a token late in a long prompt costs more than the cold
/// turn's average); without it, at the cold first turn's rate (after a warm-up, the first
/// warm-up's: the first turn is not cold then). Returns the cold rate.
pub(crate) fn ratios(turns: &mut [LocalTurn]) -> Option<f64> {
    let first = turns.first()?;
    // After a warm-up the first turn is not cold: the warm-up's prefill is.
    let (cold, ms) = match first.warm_up.filter(|w| w.evaluated_tokens > 0) {
        Some(w) => (w.evaluated_tokens, w.ms),
        None => (first.engine.evaluated_tokens.filter(|&n| n > 0)?, first.engine.first_token_ms),
    };
    let seconds = ms / 1000.0;
    let rate = (seconds > 0.0).then_some(cold as f64 / seconds)?;
    for turn in turns.iter_mut() {
        if let Some(server) = turn.server.as_ref().filter(|s| s.first_token_ms > 0.0) {
            turn.vs_server = Some(turn.engine.first_token_ms / server.first_token_ms);
        }
        let warmed = turn.warm_up.is_some();
        if (turn.turn == 1 && !warmed) || (turn.restarted && !turn.engine.state_loaded && !warmed) {
            continue;
        }
        let Some(engine_new) = turn.engine.evaluated_tokens else { continue };
        let server = turn.server.as_ref().and_then(|s| s.evaluated_tokens).filter(|&n| n > 0);
        let limit = match (server, turn.server_prefill_ms.filter(|&ms| ms > 0.0)) {
            (Some(server_new), Some(ms)) => {
                turn.limit_basis = Some("llama-server".into());
                engine_new.min(server_new).max(1) as f64 * ms / server_new as f64
            }
            _ => {
                turn.limit_basis = Some("cold turn".into());
                engine_new.max(1) as f64 / rate * 1000.0
            }
        };
        turn.limit_ms = Some(limit);
        turn.ratio = Some(turn.engine.first_token_ms / limit);
    }
    Some(rate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::local_record::{RequestFigures, WarmUpFigures};

    fn turn(n: usize, evaluated: u64, ms: f64, restarted: bool, loaded: bool) -> LocalTurn {
        LocalTurn {
            turn: n,
            restarted,
            engine: RequestFigures {
                evaluated_tokens: Some(evaluated),
                first_token_ms: ms,
                state_loaded: loaded,
                ..RequestFigures::default()
            },
            ..LocalTurn::default()
        }
    }

    #[test]
    fn the_limit_is_the_new_tokens_at_the_cold_rate_and_an_unloaded_state_has_none() {
        let mut turns = vec![
            turn(1, 1000, 2000.0, false, false),
            turn(2, 100, 260.0, false, false),
            turn(3, 120, 300.0, true, true),
            turn(4, 1100, 2200.0, true, false),
        ];
        assert_eq!(ratios(&mut turns), Some(500.0));
        assert_eq!(turns[0].ratio, None);
        assert_eq!(turns[1].limit_ms, Some(200.0));
        assert!((turns[1].ratio.unwrap() - 1.3).abs() < 1e-9);
        assert!((turns[2].ratio.unwrap() - 1.25).abs() < 1e-9);
        assert_eq!((turns[3].limit_ms, turns[3].ratio), (None, None));
        assert_eq!(turns[1].limit_basis.as_deref(), Some("cold turn"));
    }

    #[test]
    fn with_llama_server_the_limit_is_its_prefill_of_the_fewer_new_tokens() {
        let server = |evaluated: u64, ttft: f64| RequestFigures {
            evaluated_tokens: Some(evaluated),
            first_token_ms: ttft,
            ..RequestFigures::default()
        };
        let mut turns = vec![
            turn(1, 1000, 2000.0, false, false),
            // The engine evaluated what the server did: its prefill time is the limit.
            LocalTurn {
                server: Some(server(100, 450.0)),
                server_prefill_ms: Some(400.0),
                ..turn(2, 100, 440.0, false, false)
            },
            // The engine re-read more than the server had to: the limit stays the server's.
            LocalTurn {
                server: Some(server(100, 450.0)),
                server_prefill_ms: Some(400.0),
                ..turn(3, 300, 1200.0, false, false)
            },
        ];
        ratios(&mut turns);
        assert_eq!(turns[1].limit_ms, Some(400.0));
        assert!((turns[1].ratio.unwrap() - 1.1).abs() < 1e-9);
        assert!((turns[1].vs_server.unwrap() - 440.0 / 450.0).abs() < 1e-9);
        assert_eq!(turns[2].limit_ms, Some(400.0));
        assert!((turns[2].ratio.unwrap() - 3.0).abs() < 1e-9);
        assert_eq!(turns[2].limit_basis.as_deref(), Some("llama-server"));
    }

    #[test]
    fn after_a_warm_up_the_rate_is_the_warm_ups_and_the_first_turn_has_a_limit() {
        let warm = |evaluated, ms, state_loaded| {
            Some(WarmUpFigures {
                ms,
                evaluated_tokens: evaluated,
                state_loaded,
                ..Default::default()
            })
        };
        let mut turns = vec![
            LocalTurn { warm_up: warm(900, 1800.0, false), ..turn(1, 100, 250.0, false, false) },
            turn(2, 100, 260.0, false, false),
            LocalTurn { warm_up: warm(0, 20.0, true), ..turn(3, 50, 130.0, true, false) },
        ];
        assert_eq!(ratios(&mut turns), Some(500.0));
        assert_eq!(turns[0].limit_ms, Some(200.0));
        assert!((turns[0].ratio.unwrap() - 1.25).abs() < 1e-9);
        assert_eq!(turns[2].limit_ms, Some(100.0), "the warm-up loaded the restart's state");
    }
}
