#!/usr/bin/env bash
# Regenerates the embedded engine's test models (crates/local-llm/tests/fixtures/tiny-*.gguf)
# with scripts/make-tiny-gguf.py, in a venv under $HOME/.cache/vibelife holding the `gguf` and
# `numpy` packages from PyPI (created on first use). The output is deterministic for one
# version of those packages; the committed files are what the tests use.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VIBE_GGUF_VENV:-$HOME/.cache/vibelife/gguf-venv}"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import gguf, numpy' 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q gguf numpy
fi
"$VENV/bin/python" "$ROOT/scripts/make-tiny-gguf.py" "${1:-$ROOT/crates/local-llm/tests/fixtures}"
