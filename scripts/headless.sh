#!/usr/bin/env bash
# What `scripts/run.sh` shows on a machine without a display: where the data lives, the skills
# and the protocols, and the way to chat in a terminal. Usage: scripts/headless.sh VIBE (the
# built `vibe` binary). Where the data folder cannot be opened yet (no keychain for a new
# folder's key, or a passphrase not given) it still shows what needs no key: the skills and
# protocols are listed from a throw-away folder holding nothing of the person's, then how to
# choose a passphrase. Exits 0 whenever it could show that.
set -uo pipefail
VIBE="$1"

echo "No display here (DISPLAY and WAYLAND_DISPLAY are unset), so the desktop app is not opened."
echo "Chat in the terminal instead: scripts/run.sh chat    (or run under Xvfb: xvfb-run scripts/run.sh)"
echo

# With a key at hand (the keychain, VIBE_DB_PASSPHRASE) the person's own folder answers.
if "$VIBE" db info 2>/dev/null </dev/null; then
  echo
  "$VIBE" skills list </dev/null
  exit
fi

# No key: the data folder from the error's hint (`--json`), the listings from a throw-away one.
answer="$("$VIBE" --json db info 2>/dev/null </dev/null)"
data_dir="$(printf '%s' "$answer" | python3 -c 'import json, sys
try:
    print(json.load(sys.stdin)["error"].get("hint", {}).get("data_dir") or "")
except (ValueError, KeyError, TypeError):
    print("")')"
kind="$(printf '%s' "$answer" | python3 -c 'import json, sys
try:
    print(json.load(sys.stdin)["error"].get("kind") or "")
except (ValueError, KeyError, TypeError):
    print("")')"
preview="$(mktemp -d)"
trap 'rm -rf "$preview"' EXIT
user_skills=()
[ -n "$data_dir" ] && [ -d "$data_dir/skills" ] && user_skills=(--skills-dir "$data_dir/skills")

echo "Your data would live in: ${data_dir:-(unknown: see \`vibe db info\`)}"
echo
echo "Skills (no key needed to see them):"
env -u VIBE_DB_PASSPHRASE "$VIBE" --data-dir "$preview" --no-encryption skills "${user_skills[@]}" list </dev/null
echo
echo "Protocols:"
env -u VIBE_DB_PASSPHRASE "$VIBE" --data-dir "$preview" --no-encryption protocol list </dev/null
echo
if [ "$kind" = passphrase_needed ]; then
  echo "Your conversations are encrypted with a passphrase. To open them:"
  echo "  scripts/run.sh chat                  (asks for it on this terminal)"
  echo "  VIBE_DB_PASSPHRASE=... scripts/run.sh chat"
else
  echo "There is no keychain here to hold the key of a new data folder, so choose a passphrase:"
  echo "  scripts/run.sh chat                  (asks you to choose one on this terminal, typed twice)"
  echo "  VIBE_DB_PASSPHRASE=... scripts/run.sh chat"
  echo "Keep it somewhere safe: without it the conversations cannot be read."
fi
