#!/usr/bin/env bash
# Train the safety screen's learned detector (docs/safety.md, "The learned detector"): a venv
# with pinned scikit-learn under ~/.cache/vibelife, the rules-only screener built, then
# scripts/safety-learn.py, which prints the cross-validated figures and rewrites
# crates/agent/data/safety/learned-{zh,en}.tsv and their probe files. Arguments are passed on
# (e.g. --lang zh). A developer's tool: nothing in CI runs it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/install-lib.sh"
VENV="$HOME/.cache/vibelife/safety-learn-venv"
PINS=(scikit-learn==1.5.2 numpy==2.1.3 scipy==1.14.1 PyYAML==6.0.2)
ensure_venv "$VENV" "sklearn, yaml" "${PINS[@]}"
"$VENV/bin/python" -c 'import sklearn, sys; sys.exit(sklearn.__version__ != "1.5.2")' ||
  "$VENV/bin/pip" install -q "${PINS[@]}"
cd "$ROOT"
cargo build -q --release -p vibe-agent --example screen_rules
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
exec "$VENV/bin/python" scripts/safety-learn.py --screener "$TARGET/release/examples/screen_rules" "$@"
