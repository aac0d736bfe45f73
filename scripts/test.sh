#!/usr/bin/env bash
# Runs every check and test of the project: formatting, lints, and all workspace tests
# (unit, integration, scenario, doc tests). Exits non-zero on the first failure.
source "$(dirname "$0")/env.sh"

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== cargo test"
cargo test --workspace --locked --no-fail-fast
