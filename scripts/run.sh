#!/usr/bin/env bash
# The main job. With no arguments: builds the desktop app (scripts/build-app.sh, release) and
# opens it; on a machine without a display (no DISPLAY / WAYLAND_DISPLAY) it says so and shows
# where the data lives, the skills and protocols (scripts/headless.sh: also without a keychain
# or passphrase, then how to choose one), and points to `scripts/run.sh chat`. With arguments:
# builds `vibe` and runs it with them, e.g.
#   scripts/run.sh state read --skill lifecoach
source "$(dirname "$0")/env.sh"

if [ "$#" -eq 0 ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  APP="$(bash "$ROOT/scripts/build-app.sh" | tail -n 1)"
  echo "opening $APP"
  exec "$APP"
fi

cargo build --locked --release -p vibe-cli
VIBE="$CARGO_TARGET_DIR/release/vibe"
if [ "$#" -eq 0 ]; then
  # What needs no key first (skills, protocols, where the data lives), then how to get one.
  exec bash "$ROOT/scripts/headless.sh" "$VIBE"
else
  exec "$VIBE" "$@"
fi
