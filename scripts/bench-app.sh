#!/usr/bin/env bash
# Benchmarks of the desktop app in a real window under Xvfb (figures in docs/performance.md):
# idle memory (PSS of all its processes) after opening a 1,000-message conversation, and launch
# to an interactive composer, and the app idling in the tray and reopened from it. Builds the
# release app (scripts/build-app.sh) unless VIBELIFE_APP names a binary. Usage: scripts/bench-app.sh [memory|launch|tray|all]
source "$(dirname "$0")/env.sh"
source "$ROOT/scripts/app-env.sh"
app_test_env
source "$ROOT/scripts/ui-env.sh"

APP="${VIBELIFE_APP:-$(bash "$ROOT/scripts/build-app.sh" | tail -n 1)}"

trap kill_window_pids EXIT
start_xvfb
port="$(free_port)"

VIBELIFE_APP="$APP" TAURI_DRIVER="$TAURI_DRIVER" WEBKIT_DRIVER="$(command -v WebKitWebDriver)" \
  TAURI_DRIVER_PORT="$port" node "$ROOT/ui/e2e-window/${BENCH_SCRIPT:-bench.mjs}" "${1:-all}"
