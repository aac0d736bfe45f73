#!/usr/bin/env bash
# Makes tests/fixtures/v0.1.0/: a data folder written by the v0.1.0 release (tag commit 8c177d6)
# and the manifest of what it holds (expected.json), for the upgrade tests (issue 30, install
# test step 3; docs/packaging.md#the-v010-fixture). Run ONCE, by hand, with THAT release's
# binaries — never by the test suite: the committed folder is the fixture, and remaking it with a
# newer `vibe` would test nothing.
#
#   git worktree add ../v010 8c177d6
#   (cd ../v010 && CARGO_TARGET_DIR=/tmp/v010 cargo build -p vibe-cli -p vibe-test-support --bins)
#   bash scripts/make-v010-fixture.sh /tmp/v010/debug/vibe /tmp/v010/debug/fake-llm
#
# With v0.1.0's `vibe` (a clean environment, its own built-in skills: a debug build finds the
# tag checkout's skills/ folder, no keychain, the TEST passphrase below) and its
# loopback model server `fake-llm` (--script: the replies and tool calls are scripted), it writes
# what a person of v0.1.0 would miss: the profile (name, language, birth date and place), two
# conversations of several turns, journal entries in v0.1.0's fields (one with `vibe state
# append`, one by the coach's `append_to_list`), goals and a current focus (the coach's
# `write_state`), a weekly_review protocol run with its first two steps answered (scripted
# `advance_protocol_step` calls: the run waits on step 3), and remembered items (`vibe memory
# extract` with a scripted answer). Then it reads all of it back with the same `vibe --json`
# into expected.json: what v0.1.0 showed is what today's build must show.
# The data folder's run logs are kept (a person's folder has them); nothing else is left out.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VIBE="$(readlink -f "${1:?usage: make-v010-fixture.sh V010_VIBE V010_FAKE_LLM [OUT_DIR]}")"
FAKE_LLM="$(readlink -f "${2:?usage: make-v010-fixture.sh V010_VIBE V010_FAKE_LLM [OUT_DIR]}")"
OUT="${3:-$ROOT/tests/fixtures/v0.1.0}"

# The fixture's passphrase: a test value, written here and in docs/packaging.md on purpose.
PASSPHRASE="v0.1.0 fixture passphrase"

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

DATA="$WORK/data"
H="$WORK/home"
mkdir -p "$H"

# fake-llm with SCRIPT (a JSON file); prints its base URL.
start_llm() {
  local script="$1" out="$WORK/llm-$RANDOM.out" url=""
  "$FAKE_LLM" --script "$script" --reply "嗯，我在听。" --chunk 6 --delay-ms 0 --model fake-chat \
    >"$out" 2>"$out.err" &
  PIDS+=($!)
  for _ in $(seq 1 100); do
    url="$(sed -n 's/.*listening on \(\S*\).*/\1/p' "$out")"
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { cat "$out.err" >&2; echo "fake-llm did not start" >&2; exit 1; }
  echo "$url"
}

LLM_URL=""
# v0.1.0's `vibe --json`, as a person's shell runs it: a clean environment, no D-Bus session
# (no keychain: the passphrase encrypts the folder), the loopback model server.
vibe() {
  env -i PATH=/usr/bin:/bin HOME="$H" XDG_DATA_HOME="$H/xdg-data" XDG_CONFIG_HOME="$H/xdg-config" \
    XDG_CACHE_HOME="$H/xdg-cache" DBUS_SESSION_BUS_ADDRESS=disabled: LANG=C.UTF-8 \
    VIBE_DATA_DIR="$DATA" VIBE_DB_PASSPHRASE="$PASSPHRASE" \
    VIBE_LLM_BASE_URL="$LLM_URL" VIBE_LLM_MODEL=fake-chat "$VIBE" --json "$@"
}
# A chat turn; fails unless the run finished.
turn() {
  local log="$WORK/turn-$RANDOM.jsonl"
  vibe chat "$@" >"$log" 2>"$log.err" || { cat "$log.err" >&2; exit 1; }
  grep -q '"type":"run_finished"' "$log" || { cat "$log" "$log.err" >&2; exit 1; }
  echo "$log"
}

echo "== v0.1.0: $("$VIBE" --version)"

# --- the words of the fixture ---------------------------------------------------------------
Q1="最近工作压力很大，晚上睡不好，怎么办？"
A1="先照顾好自己：睡前一小时放下手机，给自己十分钟安静下来。"
Q2="我想开始跑步，每周三次，可以帮我记成目标吗？"
A2="记下了：每周跑步三次。我们从每次二十分钟开始。"
Q3="今天跑了二十分钟，感觉不错，帮我写进日记。"
A3="写好了。今天迈出了第一步，值得为自己高兴。"
P0="我们做一次每周回顾吧"
PA0="好，我们从看见进步开始：这一周你做成了哪些事？"
P1="第 1 步：这周每天都早起了，还读完了一本书"
PA1="记下了。回看这一周，什么时候你精力最好？什么时候最容易卡住？"
P2="第 2 步：早上精力最好，下午三点以后最容易卡住，总在开会后拖延"
PA2="看见了你的规律。接下来看看目标要不要调整。"

cat >"$WORK/chat.json" <<EOF
[
  {"when": "压力很大", "text": "$A1"},
  {"when": "开始跑步", "tool_calls": [{"name": "write_state", "arguments":
    {"section": "goals", "data": {"running": {"title": "每周跑步三次", "why": "睡得更好，精力更足",
      "metric": "每周 3 次，每次 20 分钟以上", "deadline": "2027-01-31", "status": "active"}}}}]},
  {"when": "开始跑步", "tool_calls": [{"name": "write_state", "arguments":
    {"section": "current", "data": {"focus": "先把跑步坚持下来", "next_actions": ["周一晚上跑 20 分钟", "准备一双跑鞋"]}}}]},
  {"when": "开始跑步", "text": "$A2"},
  {"when": "写进日记", "tool_calls": [{"name": "append_to_list", "arguments":
    {"path": "journal", "max_items": 200, "entry": {"date": "2026-11-27", "mood": 8,
      "highlights": ["第一次跑了二十分钟"], "lessons": ["开始比想象中容易"],
      "gratitude": ["天气很好"], "tomorrow": "早点睡"}}}]},
  {"when": "写进日记", "text": "$A3"},
  {"when": "每周回顾", "text": "$PA0"},
  {"when": "第 1 步", "tool_calls": [{"name": "advance_protocol_step", "arguments":
    {"step_data": {"wins": ["每天都早起了", "读完了一本书"]}, "step_summary": "看见了两件进步"}}]},
  {"when": "第 1 步", "text": "$PA1"},
  {"when": "第 2 步", "tool_calls": [{"name": "advance_protocol_step", "arguments":
    {"step_data": {"energy_pattern": "早上精力最好，下午三点以后容易卡住",
      "recurring_obstacle": "开会后拖延"}, "step_summary": "早上高效，会后拖延"}}]},
  {"when": "第 2 步", "text": "$PA2"}
]
EOF
LLM_URL="$(start_llm "$WORK/chat.json")"

# --- profile ---------------------------------------------------------------------------------
vibe profile set account.display_name '"小林"' >/dev/null
vibe profile set preferences.language '"zh-CN"' >/dev/null
vibe profile set birth_info.date '"1994-03-18"' >/dev/null
vibe profile set birth_info.time '"07:30"' >/dev/null
vibe profile set birth_info.place '"杭州市"' >/dev/null

# --- conversation 1: three turns with the life coach ------------------------------------------
turn --skill lifecoach "$Q1" >/dev/null
C1="$(vibe conversations list | python3 -c 'import json,sys; print(json.load(sys.stdin)["conversations"][0]["id"])')"
turn --conversation "$C1" --skill lifecoach "$Q2" >/dev/null
turn --conversation "$C1" --skill lifecoach "$Q3" >/dev/null

# --- a journal entry written by the person, in v0.1.0's fields (vibe state append) -------------
vibe state append --skill lifecoach --path journal --max-items 200 --entry "$(cat <<'EOF'
{"date": "2026-11-28", "mood": 6, "highlights": ["和老朋友吃了晚饭"], "lessons": ["累的时候先休息再做决定"], "gratitude": ["朋友的耐心"], "tomorrow": "整理下周的计划"}
EOF
)" >/dev/null

# --- conversation 2: the weekly review, two steps answered -------------------------------------
turn --skill lifecoach "$P0" >/dev/null
C2="$(vibe conversations list | python3 -c '
import json, sys
ids = [c["id"] for c in json.load(sys.stdin)["conversations"] if c["id"] != sys.argv[1]]
print(ids[0])' "$C1")"
vibe protocol start weekly_review >/dev/null
turn --conversation "$C2" --skill lifecoach "$P1" | xargs grep -q '"type":"protocol_progress"'
turn --conversation "$C2" --skill lifecoach "$P2" | xargs grep -q '"type":"protocol_progress"'

# --- memory: one extraction pass per conversation, the answers scripted ------------------------
# The answer cites the person's message ids, known only now: a second server with that script.
vibe conversations show "$C1" >"$WORK/c1.json"
vibe conversations show "$C2" >"$WORK/c2.json"
python3 - "$WORK/c1.json" "$WORK/c2.json" "$Q1" "$Q2" "$P2" >"$WORK/memory.json" <<'EOF'
import json, sys
c1, c2, q1, q2, p2 = sys.argv[1:]
def id_of(path, text):
    for m in json.load(open(path))["messages"]:
        if m["role"] == "user" and m["content"] == text:
            return m["id"]
    sys.exit(f"no message {text!r} in {path}")
def entry(mid, items):
    return {"when": f"[#{mid} 用户]", "text": json.dumps({"items": items}, ensure_ascii=False)}
i1, i2, i3 = id_of(c1, q1), id_of(c1, q2), id_of(c2, p2)
print(json.dumps([
    entry(i1, [
        {"kind": "concerns", "text": "工作压力大，晚上睡不好", "confidence": 0.9, "sources": [i1]},
        {"kind": "goals", "text": "想每周跑步三次", "confidence": 0.8, "sources": [i2]},
    ]),
    entry(i3, [
        {"kind": "patterns", "text": "开会后容易拖延", "confidence": 0.7, "sources": [i3]},
    ]),
], ensure_ascii=False))
EOF
LLM_URL="$(start_llm "$WORK/memory.json")"
vibe memory extract --conversation "$C1" >/dev/null
vibe memory extract --conversation "$C2" >/dev/null

# --- what v0.1.0 shows: the manifest --------------------------------------------------------
vibe conversations list >"$WORK/conversations.json"
vibe conversations show "$C1" >"$WORK/c1.json"
vibe conversations show "$C2" >"$WORK/c2.json"
vibe state read --skill lifecoach >"$WORK/lifecoach.json"
vibe protocol status >"$WORK/protocol.json"
vibe memory list >"$WORK/memory-list.json"
vibe profile show >"$WORK/profile.json"
vibe db info >"$WORK/db.json"
# v0.1.0 wrote schema version 11 (migrations 0001-0011); another build is not the release.
version="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["schema_version"])' "$WORK/db.json")"
[ "$version" = 11 ] || { echo "schema version $version: $VIBE is not v0.1.0's vibe" >&2; exit 1; }
python3 - "$WORK" "$PASSPHRASE" >"$WORK/expected.json" <<'EOF'
import json, os, sys
work, passphrase = sys.argv[1:]
load = lambda name: json.load(open(os.path.join(work, name)))
def message(m):
    out = {"id": m["id"], "role": m["role"], "content": m["content"], "run_id": m.get("run_id")}
    if m.get("tool_calls"):
        out["tool_calls"] = [c["name"] for c in m["tool_calls"]]
    if m.get("tool_call_id"):
        out["tool_call_id"] = m["tool_call_id"]
    return out
titles = {c["id"]: c.get("title") for c in load("conversations.json")["conversations"]}
def conversation(name):
    c = load(name)
    return {"id": c["conversation"]["id"], "title": titles[c["conversation"]["id"]],
            "messages": [message(m) for m in c["messages"]]}
state = load("lifecoach.json")["data"]
runs = load("protocol.json")["runs"]
profile = load("profile.json")
profile = profile.get("profile", profile)
db = load("db.json")
print(json.dumps({
    "made_by": "vibe 0.1.0 (tag commit 8c177d6), scripts/make-v010-fixture.sh",
    "passphrase": passphrase,
    "schema_version": db.get("schema_version"),
    "conversations": [conversation("c1.json"), conversation("c2.json")],
    "journal": state["journal"],
    "goals": state["goals"],
    "current": state["current"],
    "protocol_runs": [{"id": r["id"], "protocol_id": r["protocol_id"], "status": r["status"],
                       "step": r["step"], "data": r["data"]} for r in runs],
    "memory": [{"id": i["id"], "kind": i["kind"], "text": i["text"]} for i in load("memory-list.json")["items"]],
    "profile": {"display_name": profile["account"]["display_name"],
                "language": profile["preferences"]["language"],
                "birth_info": profile["birth_info"]},
}, ensure_ascii=False, indent=2))
EOF

# --- the fixture ------------------------------------------------------------------------------
for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
PIDS=()
rm -rf "$OUT"
mkdir -p "$OUT"
cp -a "$DATA" "$OUT/data"
cp "$WORK/expected.json" "$OUT/expected.json"
echo "== written: $OUT"
find "$OUT" -type f -printf '%8s %P\n' | sort -k2
