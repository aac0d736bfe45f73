#!/usr/bin/env bash
# The desktop app's real-window test: builds the app (debug, with the UI inside) and the fake
# model server, starts Xvfb, and runs ui/e2e-window/window.test.mjs, which drives the app through
# tauri-driver + WebKitWebDriver, then ui/e2e-window/tray.test.mjs (the tray, start at login).
# Screenshots land in docs/screenshots/. Installs what it needs when missing
# (scripts/app-env.sh). Run by scripts/test.sh.
source "$(dirname "$0")/env.sh"
source "$ROOT/scripts/app-env.sh"
app_test_env
source "$ROOT/scripts/ui-env.sh"

APP="$(bash "$ROOT/scripts/build-app.sh" --debug | tail -n 1)"
cargo build --locked -p vibe-test-support -p vibe-cli --bin fake-llm --bin fake-files --bin vibe
FAKE_LLM="$(cd "$CARGO_TARGET_DIR/debug" && pwd)/fake-llm"
FAKE_FILES="$(cd "$CARGO_TARGET_DIR/debug" && pwd)/fake-files"
VIBE_CLI="$(cd "$CARGO_TARGET_DIR/debug" && pwd)/vibe"

trap kill_window_pids EXIT

start_xvfb

port="$(free_port)"

echo "== real window: $APP on $DISPLAY"
VIBELIFE_APP="$APP" FAKE_LLM="$FAKE_LLM" FAKE_FILES="$FAKE_FILES" VIBE_CLI="$VIBE_CLI" TAURI_DRIVER="$TAURI_DRIVER" \
  WEBKIT_DRIVER="$(command -v WebKitWebDriver)" SHOTS_DIR="$ROOT/docs/screenshots" \
  TAURI_DRIVER_PORT="$port" \
  node --test --test-concurrency=1 --test-reporter=spec "$ROOT/ui/e2e-window/window.test.mjs" \
  "$ROOT/ui/e2e-window/tray.test.mjs"
