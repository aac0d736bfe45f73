#!/usr/bin/env bash
# Runs every check and test of the project: formatting, lints, all workspace tests (unit,
# integration, scenario, doc tests), the embedded engine and the Linux packages (checked, then
# installed, upgraded and removed), then the UI's typecheck, unit tests and browser tests, then
# the desktop app in a real window (Xvfb + tauri-driver). Exits non-zero on the first failure.
source "$(dirname "$0")/env.sh"
# The workspace includes the desktop shell (src-tauri): its WebKitGTK/GTK packages come first.
source "$ROOT/scripts/app-env.sh"

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== cargo test"
# Real MCP servers from npm for crates/mcp's tests (Node.js when missing).
source "$ROOT/scripts/mcp-env.sh"
# rclone (WebDAV), syncthing and moto (S3) for the sync tests against real servers.
source "$ROOT/scripts/sync-env.sh"
cargo test --workspace --locked --no-fail-fast

# The embedded llama.cpp engine, built once and in release only (LOCAL_ENGINE, scripts/env.sh):
# the engine's tests with the tiny fixture models and its CPU backend modules, the app's
# `local` preset with an agent round, and `vibe --json chat` on it.
echo "== embedded engine (llama.cpp, release)"
cargo clippy "${LOCAL_ENGINE[@]}" --all-targets -- -D warnings
cargo test "${LOCAL_ENGINE[@]}" --no-fail-fast --test all -- local_model

# The .deb and .rpm (docs/packaging.md): built from the engine build above (one llama.cpp
# compile, checked), then their files, dependencies, rpath, desktop entry and metainfo.
echo "== Linux packages (scripts/test-package.sh)"
PACKAGES="$(mktemp)"
VIBE_ENGINE_BUILT=1 VIBE_PACKAGES_FILE="$PACKAGES" bash "$ROOT/scripts/test-package.sh"

# The same .deb installed, upgraded and removed for real (apt-get; the installed vibe and, under
# Xvfb, vibelife see the data each time; the data folder survives removal): docs/packaging.md.
echo "== install, upgrade, remove (scripts/test-install.sh)"
mapfile -t built <"$PACKAGES"
rm -f "$PACKAGES"
bash "$ROOT/scripts/test-install.sh" "${built[@]}"

echo "== keychain tests (a private D-Bus session with gnome-keyring's Secret Service)"
bash "$ROOT/scripts/test-keychain.sh"

echo "== ui: set-up (Node.js, Chromium, npm packages when missing)"
source "$ROOT/scripts/ui-env.sh"
cd "$ROOT/ui"
echo "== ui: typecheck"
npm run --silent typecheck
echo "== ui: unit tests (vitest)"
npm test --silent
echo "== ui: browser tests (playwright, Debian's Chromium)"
npm run --silent e2e

echo "== desktop app: real window (Xvfb, tauri-driver, WebKitWebDriver)"
bash "$ROOT/scripts/test-app-window.sh"
