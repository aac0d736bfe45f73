#!/usr/bin/env bash
# Install → upgrade → remove, for real, on this Debian machine (docs/packaging.md#what-the-test-checks;
# scripts/test.sh runs it after scripts/test-package.sh, on the packages that built):
#   1. `apt-get install` of the .deb (no download: its dependencies are installed by
#      scripts/app-env.sh; the test fails, naming them, if apt would fetch anything); the packaged
#      /usr/bin/vibe, with a fresh passphrase-encrypted data folder and a loopback model server
#      (fake-llm), has a conversation, adds a journal entry and a check-in, starts the
#      weekly_review protocol and answers its first step (a scripted advance_protocol_step call);
#      then the installed /usr/bin/vibelife, under Xvfb through tauri-driver + WebKitWebDriver
#      (ui/e2e-window/install.test.mjs), is unlocked with the passphrase and shows all of it;
#   2. the same build under a higher version installed over it (the package manager's upgrade
#      path); dpkg reports the new version; everything is still there, via the CLI and the window;
#   3. a data folder made by v0.1.0 (tests/fixtures/v0.1.0, passphrase-encrypted): the installed
#      vibelife unlocks a copy with its passphrase, migrates it (a backup first) and shows its
#      conversations, journal entry and protocol step; the packaged vibe then reads every
#      conversation, message, journal entry, protocol answer and memory item of the fixture's
#      manifest (expected.json) from it, and migrates a second copy itself, saying so;
#   4. `apt-get remove`: the binaries and /usr/lib/vibelife are gone, the data folder is byte for
#      byte what it was; reinstalling finds everything again;
#   5. the .rpm's files and requirements are scripts/test-package.sh's (rpm -qlp, rpm -qRp).
# The package is purged, processes killed and temporary folders removed at the end, also on
# failure. Refuses to run when vibelife is already installed (it would remove it).
#   scripts/test-install.sh            build the packages (scripts/package.sh), then test
#   scripts/test-install.sh DEB RPM    test packages built before
source "$(dirname "$0")/env.sh"
source "$ROOT/scripts/app-env.sh"
app_test_env
source "$ROOT/scripts/ui-env.sh"

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAILED: $*"; }
# check DESCRIPTION COMMAND...: runs the command, passes when it succeeds.
check() {
  local what="$1"
  shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}
quiet() { "$@" >/dev/null; }
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

WORK="$(mktemp -d)"
LLM_PID=""
TOUCHED=0
cleanup() {
  [ -n "$LLM_PID" ] && kill "$LLM_PID" 2>/dev/null
  kill_window_pids
  # Purge only what this test installed (TOUCHED), never a package found installed before.
  if [ "$TOUCHED" = 1 ] && dpkg-query -W -f='${Status}' vibelife 2>/dev/null | grep -qv "not-installed"; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get purge -y -qq vibelife >/dev/null 2>&1 ||
      echo "could not purge vibelife: remove it with apt-get purge vibelife"
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

if [ "$#" -eq 2 ]; then
  DEB="$(readlink -f "$1")"
  RPM="$(readlink -f "$2")"
else
  echo "== building the packages (scripts/package.sh)"
  if ! bash "$ROOT/scripts/package.sh" >"$WORK/package.out" 2>"$WORK/package.log"; then
    tail -n 40 "$WORK/package.log"
    fail "scripts/package.sh"
    finish
    exit 1
  fi
  DEB="$(tail -n 2 "$WORK/package.out" | head -n 1)"
  RPM="$(tail -n 1 "$WORK/package.out")"
fi
echo "deb: $DEB"
# 5. The .rpm cannot be installed on Debian: its file list and requirements (rpm -qlp, rpm -qRp)
# are checked by scripts/test-package.sh, on the same RPM.
echo "rpm: $RPM (its files and requirements: scripts/test-package.sh)"

if dpkg-query -W -f='${Status}' vibelife 2>/dev/null | grep -qv "not-installed"; then
  fail "vibelife is already installed on this machine; this test installs and purges it: remove it first (apt-get purge vibelife)"
  finish
  exit 1
fi

cargo build --locked -p vibe-test-support --bin fake-llm
FAKE_LLM="$(cd "$CARGO_TARGET_DIR/debug" && pwd)/fake-llm"
SHOTS="${INSTALL_SHOTS_DIR:-$CARGO_TARGET_DIR/install-test-shots}"
mkdir -p "$SHOTS"
rm -f "$SHOTS"/install-*.png

DATA="$WORK/data"
H="$WORK/home"
mkdir -p "$H"
PASSPHRASE="install test passphrase"
QUESTION="最近工作压力很大，晚上睡不好，怎么办？"
REPLY="先照顾好自己：睡前一小时放下手机。"
JOURNAL="今天下班后去公园走了一圈，心里松快了些。"
CHECKIN="比昨天好一点"
STEP_ANSWER="第 1 步：这周每天都早起了，还读完了一本书"
# The model's part (fake-llm --script): the step's answer filed with advance_protocol_step, then
# a line after the tool's result; any other message gets --reply.
cat >"$WORK/script.json" <<EOF
[
  {"when": "第 1 步", "tool_calls": [{"name": "advance_protocol_step", "arguments":
    {"step_data": {"wins": ["每天都早起了", "读完了一本书"]}, "step_summary": "看见了两件进步"}}]},
  {"when": "第 1 步", "text": "记下了。我们看看这周的规律。"}
]
EOF
"$FAKE_LLM" --script "$WORK/script.json" --reply "$REPLY" --chunk 4 --delay-ms 0 --model fake-chat \
  >"$WORK/llm.out" 2>"$WORK/llm.err" &
LLM_PID=$!
for _ in $(seq 1 100); do
  LLM_URL="$(sed -n 's/.*listening on \(\S*\).*/\1/p' "$WORK/llm.out")"
  [ -n "$LLM_URL" ] && break
  sleep 0.1
done
[ -n "$LLM_URL" ] || { cat "$WORK/llm.err"; fail "fake-llm did not start"; finish; exit 1; }

start_xvfb

# The installed `vibe` as a person's shell runs it: a clean environment, the data folder,
# the passphrase (no D-Bus session, so no keychain) and the loopback model server.
vibe_cli() {
  env -i PATH=/usr/bin:/bin HOME="$H" XDG_DATA_HOME="$H/xdg-data" XDG_CONFIG_HOME="$H/xdg-config" \
    DBUS_SESSION_BUS_ADDRESS=disabled: VIBE_DATA_DIR="$DATA" VIBE_DB_PASSPHRASE="$PASSPHRASE" \
    VIBE_LLM_BASE_URL="$LLM_URL" VIBE_LLM_MODEL=fake-chat /usr/bin/vibe --json "$@"
}

# apt-get install of a local .deb, only when it needs nothing from the network: a simulation
# first, naming any package apt would fetch (scripts/app-env.sh installs the dependencies).
apt_install_local() {
  local others
  others="$($SUDO apt-get install -s "$1" 2>&1 | sed -n 's/^Inst \([^ ]*\).*/\1/p' | grep -vx vibelife || true)"
  if [ -n "$others" ]; then
    echo "apt-get would download: $others (install them first; scripts/app-env.sh should)"
    return 1
  fi
  TOUCHED=1
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "$1" >"$WORK/apt.log" 2>&1; then
    tail -n 20 "$WORK/apt.log"
    return 1
  fi
}

installed_version() { dpkg-query -W -f='${Version}' vibelife 2>/dev/null; }

# Everything the CLI made in step 1, read back with the packaged `vibe` (json outputs).
cli_sees_everything() {
  local out="$WORK/cli-$1" id
  mkdir -p "$out"
  vibe_cli conversations list >"$out/conversations.json" 2>"$out/err" &&
    id="$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["conversations"]; print(c[0]["id"] if len(c) == 1 else "")' "$out/conversations.json")" &&
    vibe_cli conversations show "$id" >"$out/conversation.json" 2>>"$out/err" &&
    vibe_cli journal list >"$out/journal.json" 2>>"$out/err" &&
    vibe_cli protocol status >"$out/protocol.json" 2>>"$out/err" &&
    vibe_cli db info >"$out/db.json" 2>>"$out/err" || { cat "$out/err"; return 1; }
  python3 - "$out" "$QUESTION" "$REPLY" "$STEP_ANSWER" "$JOURNAL" "$CHECKIN" <<'EOF'
import json, os, sys
out, question, reply, step_answer, journal, checkin = sys.argv[1:]
load = lambda name: json.load(open(os.path.join(out, name)))
messages = [(m["role"], m["content"]) for m in load("conversation.json")["messages"]]
for want in [("user", question), ("assistant", reply), ("user", step_answer)]:
    if want not in messages:
        sys.exit(f"the conversation lacks {want}: {messages}")
entries = load("journal.json")["entries"]
if not any(e["source"] == "person" and e["text"] == journal for e in entries):
    sys.exit(f"no journal entry {journal!r}: {entries}")
if not any(e["source"] == "checkin" and e["mood"] == 4 and e["text"] == checkin for e in entries):
    sys.exit(f"no check-in {checkin!r} with mood 4: {entries}")
runs = [r for r in load("protocol.json")["runs"] if r["protocol_id"] == "weekly_review"]
if len(runs) != 1 or runs[0]["status"] != "active" or runs[0]["step"] != 2:
    sys.exit(f"weekly_review is not active at step 2: {runs}")
if runs[0]["data"].get("step_1", {}).get("wins") != ["每天都早起了", "读完了一本书"]:
    sys.exit(f"step 1's answer is not stored: {runs[0]['data']}")
info = json.dumps(load("db.json"))
if "passphrase" not in info:
    sys.exit(f"the database is not passphrase-encrypted: {info}")
EOF
}

# The installed app in a window, unlocked with the passphrase: the same data on its screens.
window_sees_everything() {
  window_sees "$1" "$DATA" "$(python3 -c '
import json, sys
print(json.dumps({"passphrase": sys.argv[1], "question": sys.argv[2], "reply": sys.argv[3],
  "journal": sys.argv[4], "checkin": sys.argv[5], "protocol_titles": ["每周回顾", "Weekly Review"],
  "step": 2, "total": 4}))' "$PASSPHRASE" "$QUESTION" "$REPLY" "$JOURNAL" "$CHECKIN")"
}

# window_sees STAGE DATA_DIR EXPECT_JSON: ui/e2e-window/install.test.mjs on the installed app.
window_sees() {
  local port
  port="$(free_port)"
  VIBELIFE_APP=/usr/bin/vibelife TAURI_DRIVER="$TAURI_DRIVER" WEBKIT_DRIVER="$(command -v WebKitWebDriver)" \
    TAURI_DRIVER_PORT="$port" SHOTS_DIR="$SHOTS" INSTALL_STAGE="$1" INSTALL_DATA_DIR="$2" \
    INSTALL_HOME="$H" INSTALL_LLM_URL="$LLM_URL" INSTALL_EXPECT="$3" \
    node --test --test-reporter=spec "$ROOT/ui/e2e-window/install.test.mjs"
}

# A sha256 of every file of the data folder, by path.
data_listing() { (cd "$DATA" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

# --- 1. install -------------------------------------------------------------------------------
echo "== 1. install $(basename "$DEB")"
if ! apt_install_local "$DEB"; then
  fail "apt-get install $DEB"
  finish
  exit 1
fi
pass "apt-get install of the .deb, nothing downloaded"
check "dpkg reports vibelife $(dpkg-deb -f "$DEB" Version) installed" \
  test "$(installed_version)" = "$(dpkg-deb -f "$DEB" Version)"
for f in /usr/bin/vibelife /usr/bin/vibe; do check "$f is installed and executable" test -x "$f"; done
check "the installed vibe runs" vibe_cli --version

vibe_cli chat "$QUESTION" >"$WORK/chat1.jsonl" 2>"$WORK/chat1.err" || cat "$WORK/chat1.err"
check "the packaged vibe has a conversation with the loopback model" \
  grep -q '"type":"run_finished"' "$WORK/chat1.jsonl"
check "vibe journal add" quiet vibe_cli journal add "$JOURNAL"
check "vibe checkin" quiet vibe_cli checkin --mood 4 --note "$CHECKIN"
check "vibe protocol start weekly_review" quiet vibe_cli protocol start weekly_review
CONVERSATION="$(vibe_cli conversations list | python3 -c 'import json,sys; print(json.load(sys.stdin)["conversations"][0]["id"])' || true)"
vibe_cli chat --conversation "$CONVERSATION" --skill lifecoach "$STEP_ANSWER" >"$WORK/chat2.jsonl" 2>"$WORK/chat2.err" ||
  cat "$WORK/chat2.err"
check "the protocol's first step answered through a scripted advance_protocol_step call" \
  grep -q '"type":"protocol_progress".*"step":2' "$WORK/chat2.jsonl"
check "the packaged vibe reads back the conversation, journal, check-in and protocol step (install)" \
  cli_sees_everything install
check "the installed vibelife shows them in its window (install)" window_sees_everything install

# --- 2. upgrade -------------------------------------------------------------------------------
# The package manager's upgrade path, with the same binaries: the .deb repacked under a higher
# version (what apt does when a newer release of the package is installed over an older one).
OLD="$(dpkg-deb -f "$DEB" Version)"
NEW="$OLD+upgrade1"
echo "== 2. upgrade $OLD -> $NEW"
dpkg-deb -R "$DEB" "$WORK/upgrade-root"
sed -i "s/^Version: .*/Version: $NEW/" "$WORK/upgrade-root/DEBIAN/control"
UPGRADE="$WORK/vibelife_${NEW}_amd64.deb"
dpkg-deb --root-owner-group -Zxz -b "$WORK/upgrade-root" "$UPGRADE" >/dev/null
rm -rf "$WORK/upgrade-root"
check "$NEW is newer than $OLD for dpkg" dpkg --compare-versions "$NEW" gt "$OLD"
check "apt-get install of $NEW over $OLD, nothing downloaded" apt_install_local "$UPGRADE"
check "dpkg reports vibelife $NEW installed ($(installed_version))" test "$(installed_version)" = "$NEW"
check "the packaged vibe reads back everything after the upgrade" cli_sees_everything upgrade
check "the upgraded vibelife shows everything in its window" window_sees_everything upgrade

# --- 3. a data folder made by v0.1.0 ---------------------------------------------------------
# tests/fixtures/v0.1.0 (scripts/make-v010-fixture.sh, docs/packaging.md#the-v010-fixture):
# made once with v0.1.0's vibe, encrypted with the test passphrase its manifest names.
echo "== 3. a data folder made by v0.1.0"
FIXTURE="$ROOT/tests/fixtures/v0.1.0"
V010_PASSPHRASE="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["passphrase"])' "$FIXTURE/expected.json")"
# The packaged vibe on the copy DIR of the fixture (its passphrase, no keychain).
v010_cli() {
  local dir="$1"
  shift
  env -i PATH=/usr/bin:/bin HOME="$H" XDG_DATA_HOME="$H/xdg-data" XDG_CONFIG_HOME="$H/xdg-config" \
    DBUS_SESSION_BUS_ADDRESS=disabled: VIBE_DATA_DIR="$dir" VIBE_DB_PASSPHRASE="$V010_PASSPHRASE" \
    VIBE_LLM_BASE_URL="$LLM_URL" VIBE_LLM_MODEL=fake-chat /usr/bin/vibe --json "$@"
}
# How many backups of DIR's database were taken from v0.1.0's schema (version 11).
v010_backups() { find "$1" -maxdepth 1 -name 'vibe.db.backup-*-v11' | wc -l; }
# Everything of the fixture's manifest, read back with the packaged vibe from the copy DIR.
cli_sees_v010() {
  local dir="$1" out
  out="$WORK/cli-v010-$(basename "$1")"
  mkdir -p "$out"
  python3 -c 'import json,sys; print("\n".join(c["id"] for c in json.load(open(sys.argv[1]))["conversations"]))' \
    "$FIXTURE/expected.json" >"$out/ids"
  while read -r id; do
    v010_cli "$dir" conversations show "$id" >"$out/conversation-$id.json" 2>>"$out/err" || { cat "$out/err"; return 1; }
  done <"$out/ids"
  v010_cli "$dir" conversations list >"$out/conversations.json" 2>>"$out/err" &&
    v010_cli "$dir" journal list >"$out/journal.json" 2>>"$out/err" &&
    v010_cli "$dir" state read --skill lifecoach >"$out/lifecoach.json" 2>>"$out/err" &&
    v010_cli "$dir" protocol status >"$out/protocol.json" 2>>"$out/err" &&
    v010_cli "$dir" memory list >"$out/memory.json" 2>>"$out/err" || { cat "$out/err"; return 1; }
  python3 - "$out" "$FIXTURE/expected.json" <<'EOF'
import json, os, sys
out, manifest = sys.argv[1], json.load(open(sys.argv[2]))
load = lambda name: json.load(open(os.path.join(out, name)))
def recorded(m):
    r = {"id": m["id"], "role": m["role"], "content": m["content"], "run_id": m.get("run_id")}
    if m.get("tool_calls"):
        r["tool_calls"] = [c["name"] for c in m["tool_calls"]]
    if m.get("tool_call_id"):
        r["tool_call_id"] = m["tool_call_id"]
    return r
listed = {c["id"] for c in load("conversations.json")["conversations"]}
for c in manifest["conversations"]:
    if c["id"] not in listed:
        sys.exit(f"conversation {c['id']} is not listed: {sorted(listed)}")
    now = [recorded(m) for m in load(f"conversation-{c['id']}.json")["messages"]]
    if now != c["messages"]:
        sys.exit(f"conversation {c['id']}: {now} != {c['messages']}")
shown = {e["id"]: e for e in load("journal.json")["entries"]}
for e in manifest["journal"]:
    if e["_created_at"] not in shown or e["highlights"][0] not in shown[e["_created_at"]]["text"]:
        sys.exit(f"journal entry {e} is not shown: {list(shown.values())}")
state = load("lifecoach.json")["data"]
for section in ("journal", "goals", "current"):
    if state.get(section) != manifest[section]:
        sys.exit(f"lifecoach.{section}: {state.get(section)} != {manifest[section]}")
runs = {r["id"]: r for r in load("protocol.json")["runs"]}
for r in manifest["protocol_runs"]:
    now = runs.get(r["id"], {})
    if any(now.get(k) != r[k] for k in ("protocol_id", "status", "step", "data")):
        sys.exit(f"protocol run {r} is now {now}")
items = sorted((i["id"], i["kind"], i["text"]) for i in load("memory.json")["items"])
if items != sorted((i["id"], i["kind"], i["text"]) for i in manifest["memory"]):
    sys.exit(f"memory: {items} != {manifest['memory']}")
EOF
}
V010_WINDOW="$WORK/v010-window"
V010_CLI="$WORK/v010-cli"
cp -a "$FIXTURE/data" "$V010_WINDOW"
cp -a "$FIXTURE/data" "$V010_CLI"
# The window opens the first copy: it unlocks it, migrates it and shows the weekly review at
# step 3 of 4, the newest journal entry and the review's conversation (its step-1 answer and
# last reply).
check "the installed vibelife opens the v0.1.0 folder and shows its data" \
  window_sees v010 "$V010_WINDOW" "$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
review = m["conversations"][1]
said = lambda role: [x["content"] for x in review["messages"] if x["role"] == role and x["content"]]
print(json.dumps({"passphrase": m["passphrase"], "conversations": len(m["conversations"]),
  "question": said("user")[1], "reply": said("assistant")[-1],
  "journal": m["journal"][0]["highlights"][0], "protocol_titles": ["每周回顾", "Weekly Review"],
  "step": m["protocol_runs"][0]["step"], "total": 4}, ensure_ascii=False))' "$FIXTURE/expected.json")"
check "the app backed up v0.1.0's database before migrating it" test "$(v010_backups "$V010_WINDOW")" = 1
check "the packaged vibe reads every conversation, journal entry, protocol answer and memory item after the app's migration" \
  cli_sees_v010 "$V010_WINDOW"
# The packaged CLI opens the second copy first: it migrates it, says so and names the backup.
v010_cli "$V010_CLI" db info >"$WORK/v010-db.json" 2>"$WORK/v010-db.err" || cat "$WORK/v010-db.err"
check "the packaged vibe upgrades the v0.1.0 folder, telling where the old file is kept" \
  grep -q "note: upgraded .* from schema v11 to .*the old file is kept as" "$WORK/v010-db.err"
check "the packaged vibe backed up v0.1.0's database first" test "$(v010_backups "$V010_CLI")" = 1
check "the packaged vibe reads everything of the v0.1.0 folder it migrated" cli_sees_v010 "$V010_CLI"

# --- 4. remove, then reinstall ----------------------------------------------------------------
echo "== 4. remove, then reinstall"
data_listing >"$WORK/data.before"
check "the data folder has files to keep ($(wc -l <"$WORK/data.before"))" test -s "$WORK/data.before"
check "apt-get remove vibelife" bash -c "DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y vibelife >'$WORK/apt.log' 2>&1"
for f in /usr/bin/vibe /usr/bin/vibelife /usr/lib/vibelife; do check "$f is gone" test ! -e "$f"; done
check "dpkg no longer lists vibelife as installed" \
  bash -c "! dpkg-query -W -f='\${Status}' vibelife 2>/dev/null | grep -q 'install ok installed'"
data_listing >"$WORK/data.after"
check "the data folder is byte for byte what it was (sha256 of every file)" \
  diff "$WORK/data.before" "$WORK/data.after"
check "apt-get install of $NEW again" apt_install_local "$UPGRADE"
check "the reinstalled vibe finds everything again" cli_sees_everything reinstall

echo "screenshots: $SHOTS"
finish
