#!/usr/bin/env bash
# Builds the `vibe` command line and runs it. With no arguments it shows where the data
# lives and the installed skills; otherwise the arguments go to `vibe`, e.g.
#   scripts/run.sh state read --skill lifecoach
source "$(dirname "$0")/env.sh"

cargo build --locked --release -p vibe-cli
VIBE="$CARGO_TARGET_DIR/release/vibe"
if [ "$#" -eq 0 ]; then
  "$VIBE" db info
  "$VIBE" skills list
else
  exec "$VIBE" "$@"
fi
