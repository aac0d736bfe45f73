#!/usr/bin/env bash
# The main job. With no arguments: builds the desktop app (scripts/build-app.sh, release) and
# opens it; on a machine without a display (no DISPLAY / WAYLAND_DISPLAY) it says so, shows
# where the data lives and the installed skills with the `vibe` command line, and points to
# `scripts/run.sh chat`. With arguments: builds `vibe` and runs it with them, e.g.
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
  echo "No display here (DISPLAY and WAYLAND_DISPLAY are unset), so the desktop app is not opened."
  echo "Chat in the terminal instead: scripts/run.sh chat    (or run under Xvfb: xvfb-run scripts/run.sh)"
  echo
  # The first command on a machine without a keychain needs a database passphrase (asked on a
  # terminal, or VIBE_DB_PASSPHRASE) or --no-encryption; vibe says so itself.
  if "$VIBE" db info; then
    "$VIBE" skills list
  else
    echo
    echo "vibe could not open its data folder yet (above: why, and what to do)."
  fi
else
  exec "$VIBE" "$@"
fi
