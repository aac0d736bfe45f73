#!/usr/bin/env bash
# Regenerates the UI's TypeScript types (ui/src/wire/) from crates/wire after a change to the
# wire types. The staleness test (`cargo test -p vibe-wire ts_bindings`) fails until this has run.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/vibelife/target}"
VIBE_WRITE_TS=1 cargo test --locked -p vibe-wire --lib -- --quiet ts_bindings command_map
echo "wrote ui/src/wire/"
