#!/usr/bin/env bash
# One-shot `vibe chat` start-up on what ships: the release CLI with the embedded engine and
# mimalloc (LOCAL_ENGINE, scripts/env.sh). Times whole processes of `vibe chat "你好"` (start to
# exit, the answer included) against `fake-llm` on 127.0.0.1 answering at once, with the
# database key from the OS keychain (gnome-keyring's Secret Service on a private D-Bus session,
# as scripts/test-keychain.sh) and from a passphrase (VIBE_DB_PASSPHRASE: SQLCipher's KDF runs
# at every start, by design). Uses farm-bench when it is on PATH (median of RUNS), else
# /usr/bin/time. Figures in docs/performance.md#start-up. Usage: [VIBE=… FAKE_LLM=…]
# scripts/bench-startup.sh [RUNS]
source "$(dirname "$0")/env.sh"
RUNS="${1:-15}"

# VIBE / FAKE_LLM name ready binaries (a `vibe` built with LOCAL_ENGINE, any fake-llm).
if [ -z "${VIBE:-}" ]; then
  cargo build "${LOCAL_ENGINE[@]}" --bin vibe
  VIBE="$CARGO_TARGET_DIR/release/vibe"
fi
if [ -z "${FAKE_LLM:-}" ]; then
  cargo build --release --locked -p vibe-test-support --bin fake-llm
  FAKE_LLM="$CARGO_TARGET_DIR/release/fake-llm"
fi

work="$(mktemp -d)"
trap 'kill "${fake_pid:-}" 2>/dev/null; rm -rf "$work"' EXIT
"$FAKE_LLM" --model bench --reply "你好！今天想聊点什么？" >"$work/fake.out" 2>&1 &
fake_pid=$!
for _ in $(seq 50); do grep -q listening "$work/fake.out" && break; sleep 0.1; done
base_url="$(sed -n 's/^listening on //p' "$work/fake.out")"
[ -n "$base_url" ] || { echo "fake-llm did not start: $(cat "$work/fake.out")" >&2; exit 1; }
export VIBE_LLM_BASE_URL="$base_url" VIBE_LLM_MODEL=bench VIBE_WORK="$work" VIBE RUNS

time_chat() { # label, then the data dir; the environment says where the key comes from
  local label="$1" dir="$2"
  "$VIBE" --data-dir "$dir" chat "你好" >/dev/null # creates the folder and its key
  echo "== $label"
  if command -v farm-bench >/dev/null; then
    farm-bench -n "$RUNS" --warmup 2 -- "$VIBE" --data-dir "$dir" chat "你好"
  else
    for _ in 1 2 3; do /usr/bin/time -f "%e s wall, %U+%S s cpu, %M KiB peak" \
      "$VIBE" --data-dir "$dir" chat "你好" >/dev/null; done
  fi
}
export -f time_chat

VIBE_DB_PASSPHRASE="bench passphrase" time_chat "passphrase (VIBE_DB_PASSPHRASE)" "$work/passphrase"

inner='
set -euo pipefail
export XDG_DATA_HOME="$VIBE_WORK/xdg" XDG_RUNTIME_DIR="$VIBE_WORK/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
printf %s "vibelife-bench-keyring" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
sleep 1
unset VIBE_DB_PASSPHRASE
time_chat "keychain key (gnome-keyring)" "$VIBE_WORK/keychain"
'
dbus-run-session -- bash -c "$inner" 2> >(grep -v "Failed to set fd limit" >&2)
