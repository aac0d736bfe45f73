#!/usr/bin/env bash
# Issue 32's benchmark (docs/performance.md, "Turns"; opt-in, not in CI): `vibe bench local`
# runs a scripted conversation through the embedded engine — per turn the prompt tokens, tokens
# evaluated and reused, time to first token and generation speed, every RESTART_EVERY-th turn in
# a fresh process — and replays the same requests, in the same run, against llama.cpp's own
# `llama-server` (built from the same vendored llama.cpp: scripts/bench-support.sh) through the
# `llama.cpp server` preset, its prompt cache on (`cache_prompt` is the server's default). The
# table ends with the goals' ratios: time to first token ÷ the time to prefill only the turn's
# new tokens, and ÷ llama-server's on the same request.
#   scripts/bench-local-turns.sh [MODEL.gguf]     (default: Gemma 3 270M Q4_K_M, fetched once)
# Environment: THREADS (2), TURNS (10), RESTART_EVERY (3), ANSWER_TOKENS (64), PORT (8097),
# SKIP_LLAMA_SERVER=1, JSON=1 (the report as JSON instead of the table), WARM_UP=1 (each process
# warms the conversation up before its first turn, as the app does when a conversation opens).
source "$(dirname "$0")/env.sh"
source "$(dirname "$0")/bench-support.sh"
MODEL="${1:-$(ensure_bench_model)}"
THREADS="${THREADS:-2}"
PORT="${PORT:-8097}"

# The CLI with the engine, built with the package set of scripts/test.sh (LOCAL_ENGINE in
# env.sh), so llama.cpp is not compiled again for it.
cargo build "${LOCAL_ENGINE[@]}"
VIBE="$CARGO_TARGET_DIR/release/vibe"

SERVER_ARGS=()
if [ "${SKIP_LLAMA_SERVER:-0}" != 1 ]; then
  SERVER=$(ensure_llama_server) || { echo "llama-server could not be built (above)" >&2; exit 1; }
  # One slot, the engine's window (16,000 tokens: chat.context.max_context_tokens), the same
  # threads; --metrics for the tokens it evaluates per request.
  "$SERVER" -m "$MODEL" --host 127.0.0.1 --port "$PORT" -t "$THREADS" -c 16000 -np 1 \
    --metrics --no-webui >"${TMPDIR:-/tmp}/llama-server-$PORT.log" 2>&1 &
  SERVER_PID=$!
  trap 'kill "$SERVER_PID" 2>/dev/null' EXIT
  for _ in $(seq 120); do
    curl -fs "http://127.0.0.1:$PORT/health" >/dev/null && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "${TMPDIR:-/tmp}/llama-server-$PORT.log" >&2; exit 1; }
    sleep 0.5
  done
  SERVER_ARGS=(--llama-server "http://127.0.0.1:$PORT/v1")
fi

echo "load before: $(uptime | sed 's/.*load average: //')"
FLAGS=()
[ "${JSON:-0}" = 1 ] && FLAGS=(--json)
WARM=()
[ "${WARM_UP:-0}" = 1 ] && WARM=(--warm-up)
"$VIBE" "${FLAGS[@]}" bench local --model "$MODEL" --turns "${TURNS:-10}" \
  --restart-every "${RESTART_EVERY:-3}" --threads "$THREADS" \
  --answer-tokens "${ANSWER_TOKENS:-64}" "${WARM[@]}" "${SERVER_ARGS[@]}"
echo "load after: $(uptime | sed 's/.*load average: //')"
