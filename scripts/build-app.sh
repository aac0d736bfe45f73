#!/usr/bin/env bash
# Builds the desktop app: installs what the build needs when it is missing (Debian packages for
# WebKitGTK/GTK, Node.js and the UI's npm packages), builds the UI into ui/dist, then the
# `vibelife` binary with the UI inside it (no dev server needed). Prints the binary's absolute
# path on its last line.
#   scripts/build-app.sh           release build (what scripts/run.sh opens)
#   scripts/build-app.sh --debug   debug build (the real-window test's; compiles faster)
source "$(dirname "$0")/env.sh"
source "$ROOT/scripts/app-env.sh"
source "$ROOT/scripts/ui-env.sh"

# Release: the embedded llama.cpp engine (docs/local-model.md) with the engine's one package set
# (LOCAL_ENGINE, scripts/env.sh: `vibe` is built too), so the app, the packages and the engine
# tests of scripts/test.sh share one llama.cpp build.
profile=release
build=("${LOCAL_ENGINE[@]}" --features vibelife/custom-protocol)
if [ "${1:-}" = "--debug" ]; then
  profile=debug
  build=(--locked -p vibelife --features custom-protocol)
fi

echo "== building the UI (ui/dist)" >&2
(cd "$ROOT/ui" && npm run --silent build) >&2
echo "== building the desktop app ($profile)" >&2
cargo build "${build[@]}" >&2
# With local-llm, llama.cpp's shared libraries and CPU backend modules (lib*.so*,
# libggml-cpu-*.so) sit beside the binary and must ship with it (docs/local-model.md#cpu-support).
echo "$(cd "$CARGO_TARGET_DIR/$profile" && pwd)/vibelife"
