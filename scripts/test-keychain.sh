#!/usr/bin/env bash
# Runs the keychain tests (`keychain_` in vibe-core's integration tests, ignored by a plain
# `cargo test`) against a real Secret Service: a private session D-Bus (dbus-run-session) and
# gnome-keyring-daemon unlocked with a test password, its keyrings in a throw-away folder, so
# the developer's own keychain is never touched. When the daemon cannot start it says so
# clearly ("SKIPPED: ...") and exits 0, except under CI=true: there a skip fails the run
# unless tests/skip-allow.txt lists `scripts/test-keychain.sh` with the reason (the rule
# vibe_test_support::skip applies to Rust tests).
source "$(dirname "$0")/env.sh"

# The keychain tests cannot run here ($1 says why): a notice and exit 0, or under CI=true a
# failure unless allow-listed.
skip() {
  local name="scripts/test-keychain.sh" allowed=""
  if [[ "${CI:-}" =~ ^([Tt][Rr][Uu][Ee]|1)$ ]]; then
    allowed="$(awk -F '\t' -v n="$name" '!/^#/ && $1 == n && $2 ~ /[^ ]/ { print $2; exit }' \
      "$ROOT/tests/skip-allow.txt")"
    if [ -z "$allowed" ]; then
      echo "== keychain tests FAILED: they could not run: $1. Under CI=true a skipped test fails:" \
        "install what they need, or list \`$name<TAB>why\` in tests/skip-allow.txt" >&2
      exit 1
    fi
    echo "== keychain tests SKIPPED: $1 (allowed in CI: $allowed)" >&2
    exit 0
  fi
  echo "== keychain tests SKIPPED: $1 (the passphrase path is tested by cargo test)" >&2
  exit 0
}

# Debian packages of the Secret Service (installed only when missing, as env.sh does).
if ! apt_install_missing --no-recommends "the keychain tests" dbus-daemon gnome-keyring libsecret-tools; then
  skip "cannot install dbus-daemon, gnome-keyring or libsecret-tools"
fi

for tool in dbus-run-session gnome-keyring-daemon secret-tool; do
  if ! command -v "$tool" >/dev/null; then
    skip "$tool is missing"
  fi
done

# Built first, outside the session, so a build failure is not taken for a keychain failure.
cargo test -p vibe-core --test all --no-run --locked

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/data" "$work/run"
chmod 700 "$work/run"

# Inside the session: start the daemon, check it answers, run the tests. Exit code 77 means
# the daemon could not be used.
inner='
set -uo pipefail
export XDG_DATA_HOME="$KEYCHAIN_WORK/data" XDG_RUNTIME_DIR="$KEYCHAIN_WORK/run"
if ! printf %s "vibelife-test-keyring" | gnome-keyring-daemon --unlock --components=secrets >"$KEYCHAIN_WORK/daemon.env" 2>"$KEYCHAIN_WORK/daemon.err"; then
  echo "gnome-keyring-daemon did not start: $(cat "$KEYCHAIN_WORK/daemon.err")" >"$KEYCHAIN_WORK/why"
  exit 77
fi
for _ in 1 2 3 4 5 6 7 8 9 10; do
  printf probe | secret-tool store --label="vibelife probe" service vibelife-probe username probe 2>/dev/null && break
  sleep 0.3
done
if [ "$(secret-tool lookup service vibelife-probe username probe 2>/dev/null)" != probe ]; then
  echo "the Secret Service of gnome-keyring-daemon does not answer on the session D-Bus" >"$KEYCHAIN_WORK/why"
  exit 77
fi
secret-tool clear service vibelife-probe username probe
cargo test -p vibe-core --test all --locked keychain_ -- --ignored
'
set +e
KEYCHAIN_WORK="$work" dbus-run-session -- bash -c "$inner" 2> >(grep -v "Failed to set fd limit" >&2)
rc=$?
set -e
if [ "$rc" -eq 77 ]; then
  skip "$(cat "$work/why" 2>/dev/null || echo 'no Secret Service')"
fi
exit "$rc"
