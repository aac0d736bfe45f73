#!/usr/bin/env bash
# The Linux packages' test (scripts/test.sh runs it; docs/packaging.md#what-the-test-checks):
# builds them with scripts/package.sh, then checks what a person installing them gets:
#   - the .deb's files (dpkg-deb -c): both binaries in /usr/bin, llama.cpp's libraries and every
#     CPU backend module of the build in /usr/lib/vibelife and no library elsewhere, every
#     built-in skill, the desktop entry, an icon at every freedesktop size, the metainfo, the
#     licences; its control fields (dpkg-deb -f: name, version, Depends, Recommends); its size
#     against the goal in docs/performance.md;
#   - the .rpm's files and requirements (rpm -qlp, rpm -qRp, --recommends): the same files;
#   - the unpacked binaries: an rpath naming the private folder (readelf -d), every library they
#     and the private libraries need is in that folder or comes with a declared dependency, and
#     `vibe` runs from the unpacked tree without LD_LIBRARY_PATH, finds the packaged skills, and
#     answers with the embedded engine on the package's CPU backend modules;
#   - the desktop entry (desktop-file-validate) and the metainfo (appstreamcli validate);
#   - the licences file: GeoNames' attribution, the model catalogue's licences, crates, npm.
# With VIBE_ENGINE_BUILT=1 (scripts/test.sh, after the engine tests' build) it also checks that
# building the app compiled llama.cpp no second time (one llama.cpp build per target folder).
# Tools it needs are installed when missing; a check whose tool is still missing fails.
#   scripts/test-package.sh            build the packages, then check them
#   scripts/test-package.sh DEB RPM    check packages built before
source "$(dirname "$0")/env.sh"
source "$ROOT/scripts/app-env.sh"

# rpm: reads the .rpm; desktop-file-utils: desktop-file-validate; appstream: appstreamcli;
# binutils: readelf; apt-cache (apt) and dpkg are part of Debian.
apt_install_missing --no-recommends "the package test" rpm desktop-file-utils appstream binutils

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
need_tool() {
  command -v "$1" >/dev/null 2>&1 || { fail "tool $1 missing after install"; return 1; }
}

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
LOG="$WORK/package.log"

if [ "$#" -eq 2 ]; then
  # Packages built before (scripts/package.sh's last two lines): check them as they are.
  DEB="$1"
  RPM="$2"
  : >"$LOG"
else
  echo "== building the packages (scripts/package.sh; its log: $LOG while it runs)"
  if ! bash "$ROOT/scripts/package.sh" >"$WORK/package.out" 2>"$LOG"; then
    tail -n 40 "$LOG"
    echo "FAILED: scripts/package.sh"
    echo "0 passed, 1 failed"
    exit 1
  fi
  DEB="$(tail -n 2 "$WORK/package.out" | head -n 1)"
  RPM="$(tail -n 1 "$WORK/package.out")"
fi
echo "deb: $DEB"
echo "rpm: $RPM"
# For scripts/test.sh: the paths, so the install test (scripts/test-install.sh) uses these.
[ -n "${VIBE_PACKAGES_FILE:-}" ] && printf '%s\n%s\n' "$DEB" "$RPM" >"$VIBE_PACKAGES_FILE"
VERSION="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$ROOT/tauri.conf.json")"
BUILD_DIR="$CARGO_TARGET_DIR/release"

if [ "${VIBE_ENGINE_BUILT:-}" = "1" ]; then
  check "building the app after the engine tests compiled llama.cpp no second time" \
    bash -c "! grep -E 'Compiling llama-cpp-sys-2' '$LOG'"
fi

# --- the .deb ---------------------------------------------------------------------------------
# Files and links (not folders), as absolute paths.
dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./||; s|^|/|' | sort >"$WORK/deb.files"
has() { grep -qxF "$1" "$WORK/deb.files"; }
for f in /usr/bin/vibelife /usr/bin/vibe /usr/share/applications/vibelife.desktop \
  /usr/share/metainfo/app.vibelife.desktop.metainfo.xml /usr/share/doc/vibelife/LICENSES.txt \
  /usr/lib/vibelife/libllama.so.0 /usr/lib/vibelife/libllama-common.so.0 \
  /usr/lib/vibelife/libggml.so.0 /usr/lib/vibelife/libggml-base.so.0; do
  check ".deb has $f" has "$f"
done
modules=0
for module in "$BUILD_DIR"/libggml-cpu-*.so; do
  modules=$((modules + 1))
  check ".deb has the CPU backend module $(basename "$module")" \
    has "/usr/lib/vibelife/$(basename "$module")"
done
check "the build made CPU backend modules to ship ($modules)" test "$modules" -ge 1
check ".deb puts no library outside /usr/lib/vibelife" \
  bash -c "! grep -E '/lib[^/]*\.so(\.|$)' '$WORK/deb.files' | grep -v '^/usr/lib/vibelife/'"
for size in 16 22 24 32 36 48 64 72 96 128 192 256 512; do
  check ".deb has the ${size}x${size} icon" has "/usr/share/icons/hicolor/${size}x${size}/apps/vibelife.png"
done
for skill in "$ROOT"/skills/*/SKILL.md; do
  name="$(basename "$(dirname "$skill")")"
  check ".deb has the built-in skill $name" has "/usr/share/vibelife/skills/$name/SKILL.md"
done
field() { dpkg-deb -f "$DEB" "$1"; }
check ".deb Package is vibelife" test "$(field Package)" = vibelife
check ".deb Version is $VERSION" test "$(field Version)" = "$VERSION"
depends="$(field Depends)"
for dep in libwebkit2gtk-4.1-0 libgtk-3-0 "libssl3 | libssl3t64" libstdc++6 libc6; do
  check ".deb Depends names $dep ($depends)" grep -qF "$dep" <<<"$depends"
done
check ".deb Recommends a Secret Service ($(field Recommends))" \
  grep -q "gnome-keyring" <<<"$(field Recommends)"
check ".deb Depends on no Secret Service" bash -c "! grep -q keyring <<<'$depends'"
deb_bytes="$(stat -c %s "$DEB")"
echo ".deb size: $deb_bytes bytes; .rpm size: $(stat -c %s "$RPM") bytes"
check ".deb is at most 40 MB (docs/performance.md goal): $deb_bytes bytes" \
  test "$deb_bytes" -le 40000000

# --- the .rpm ---------------------------------------------------------------------------------
if need_tool rpm; then
  rpm -qlp "$RPM" 2>/dev/null | sort >"$WORK/rpm.files"
  check ".rpm holds the same files as the .deb" \
    diff <(grep -v '^/usr/share/doc/' "$WORK/deb.files") <(grep -v '^/usr/share/doc/' "$WORK/rpm.files")
  check ".rpm has the licences file" grep -qxF /usr/share/doc/vibelife/LICENSES.txt "$WORK/rpm.files"
  requires="$(rpm -qRp "$RPM" 2>/dev/null)"
  for req in 'libwebkit2gtk-4.1.so.0()(64bit)' 'libgtk-3.so.0()(64bit)' openssl-libs; do
    check ".rpm requires $req" grep -qxF "$req" <<<"$requires"
  done
  check ".rpm recommends gnome-keyring" grep -qx gnome-keyring <<<"$(rpm -qp --recommends "$RPM" 2>/dev/null)"
  check ".rpm is vibelife $VERSION" test "$(rpm -qp --qf '%{NAME} %{VERSION}' "$RPM" 2>/dev/null)" = "vibelife $VERSION"
fi

# --- the unpacked .deb: libraries, rpath, skills ----------------------------------------------
TREE="$WORK/tree"
dpkg-deb -x "$DEB" "$TREE"
if need_tool readelf; then
  for bin in vibelife vibe; do
    rpath="$(readelf -d "$TREE/usr/bin/$bin" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')"
    check "$bin's rpath names the private folder \$ORIGIN/../lib/vibelife ($rpath)" \
      grep -qF '$ORIGIN/../lib/vibelife' <<<"$rpath"
  done
  # Every library the binaries and the private libraries need: in the private folder, or owned
  # (on this machine) by a package the .deb depends on, directly or through its dependencies.
  mapfile -t declared < <(tr ',|' '\n\n' <<<"$depends" | sed 's/(.*)//; s/ //g' | grep .)
  known=()
  for p in "${declared[@]}"; do apt-cache show "$p" >/dev/null 2>&1 && known+=("$p"); done
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances "${known[@]}" 2>/dev/null |
    sed -n 's/^ *\(Pre\)\{0,1\}Depends: <\{0,1\}\([^:>]*\).*/\2/p; s/^\([^ <][^:]*\)$/\1/p' |
    sort -u >"$WORK/closure"
  printf '%s\n' "${known[@]}" >>"$WORK/closure"
  # The Debian package that owns the library the loader finds for a SONAME (dpkg records
  # /lib/... or /usr/lib/... depending on the package: both are tried).
  owner_of() {
    local path real candidate
    path="$(ldconfig -p | awk -v s="$1" '$1 == s && /x86-64/ { print $NF; exit }')"
    [ -n "$path" ] || return 0
    real="$(readlink -f "$path")"
    for candidate in "$path" "$real" "${path#/usr}" "/usr${path#/usr}" "${real#/usr}" "/usr${real#/usr}"; do
      if dpkg -S "$candidate" >/dev/null 2>&1; then
        dpkg -S "$candidate" | head -n 1 | cut -d: -f1
        return 0
      fi
    done
  }
  missing=()
  for elf in "$TREE"/usr/bin/* "$TREE"/usr/lib/vibelife/*; do
    for soname in $(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      [ -e "$TREE/usr/lib/vibelife/$soname" ] && continue
      owner="$(owner_of "$soname")"
      if [ -z "$owner" ] || ! grep -qxF "$owner" "$WORK/closure"; then
        missing+=("$(basename "$elf"): $soname (${owner:-no package})")
      fi
    done
  done
  check "every library needed is packaged or comes with a dependency${missing:+: ${missing[*]}}" \
    test "${#missing[@]}" -eq 0
fi
# `vibe` from the unpacked tree, no LD_LIBRARY_PATH: it loads llama.cpp's libraries through its
# rpath and finds the built-in skills beside it (<exe dir>/../share/vibelife/skills).
check "vibe runs from the package's layout" \
  env -u LD_LIBRARY_PATH "$TREE/usr/bin/vibe" --version
H="$WORK/home"
mkdir -p "$H"
env -u LD_LIBRARY_PATH -u VIBE_BUILTIN_SKILLS_DIR HOME="$H" XDG_DATA_HOME="$H/data" \
  XDG_CONFIG_HOME="$H/config" VIBE_DB_PASSPHRASE=package-test-passphrase \
  "$TREE/usr/bin/vibe" skills list --json >"$WORK/skills.json" 2>"$WORK/skills.err" || true
check "the packaged vibe's built-in skills are the package's, all valid, none missing" \
  python3 - "$WORK/skills.json" "$TREE/usr/share/vibelife/skills" "$ROOT/skills" <<'EOF'
import json, os, sys
listing, packaged, source = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    data = json.load(open(listing))
except ValueError:
    sys.exit(f"vibe skills list gave no JSON: {open(listing).read()[:500]}")
builtin = [r["path"] for r in data["roots"] if r["kind"] == "builtin"]
if builtin != [packaged]:
    sys.exit(f"built-in root {builtin}, expected {packaged}")
names = sorted(s["name"] for s in data["skills"] if s["root"] == "builtin" and s["valid"])
want = sorted(n for n in os.listdir(source) if os.path.isfile(os.path.join(source, n, "SKILL.md")))
if names != want:
    sys.exit(f"valid built-in skills {names}, expected {want}")
EOF

# The packaged engine: `vibe` answers with the tiny fixture model, and the CPU backend modules
# ggml opens (glibc's LD_DEBUG=files lists every file loaded) are the package's, from
# <exe dir>/../lib/vibelife, not the build machine's folder.
ENGINE_DATA="$WORK/engine-data"
vibe_pkg() {
  env -u LD_LIBRARY_PATH -u VIBE_BUILTIN_SKILLS_DIR HOME="$H" VIBE_DB_PASSPHRASE=package-test-passphrase \
    "$TREE/usr/bin/vibe" --data-dir "$ENGINE_DATA" "$@"
}
vibe_pkg --json models add "$ROOT/crates/local-llm/tests/fixtures/tiny-q8_0.gguf" >/dev/null 2>&1 || true
vibe_pkg models use tiny-q8_0 >/dev/null 2>&1 || true
python3 - "$ENGINE_DATA/settings.json" <<'EOF2' || true
import json, sys
s = json.load(open(sys.argv[1]))
s["llm"].update({"temperature": 0.0, "max_tokens": 8, "local": {"threads": 1}})
json.dump(s, open(sys.argv[1], "w"))
EOF2
LD_DEBUG=files vibe_pkg --json chat "你好" </dev/null >"$WORK/engine.jsonl" 2>"$WORK/engine.err" || true
check "the packaged vibe answers with the embedded engine (tiny model)" \
  grep -q '"type":"run_finished"' "$WORK/engine.jsonl"
check "the CPU backend modules loaded are the package's (/usr/lib/vibelife)" bash -c "
  grep -o 'file=[^ ]*ggml-cpu-[^ ]*' '$WORK/engine.err' | sort -u >'$WORK/modules.loaded'
  test -s '$WORK/modules.loaded' && ! grep -v -F 'file=$TREE/usr/bin/../lib/vibelife/' '$WORK/modules.loaded'"

# --- desktop entry and metainfo ---------------------------------------------------------------
DESKTOP="$TREE/usr/share/applications/vibelife.desktop"
if need_tool desktop-file-validate; then
  check "the desktop entry validates (desktop-file-validate)" desktop-file-validate "$DESKTOP"
fi
for line in 'Name=VibeLife' 'Name\[zh_CN\]=.+' 'Categories=.+;' 'Exec=vibelife' 'Icon=vibelife'; do
  check "the desktop entry has $line" grep -qE "^$line\$" "$DESKTOP"
done
META="$TREE/usr/share/metainfo/app.vibelife.desktop.metainfo.xml"
if need_tool appstreamcli; then
  check "the metainfo validates (appstreamcli validate)" appstreamcli validate --no-net "$META"
fi
check "the metainfo's newest release is $VERSION and it launches vibelife.desktop" \
  python3 - "$META" "$VERSION" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
release = root.find("releases/release")
launch = root.find("launchable")
sys.exit(0 if release is not None and release.get("version") == sys.argv[2]
         and launch is not None and launch.text == "vibelife.desktop" else 1)
EOF

# --- licences ---------------------------------------------------------------------------------
LICENSES="$TREE/usr/share/doc/vibelife/LICENSES.txt"
for text in "GeoNames" "creativecommons.org/licenses/by/4.0" "llama-cpp-sys-2 " "tauri " "react " \
  "From: llama-cpp-sys-2"; do
  check "the licences file mentions '$text'" grep -qF "$text" "$LICENSES"
done
check "the licences file names every catalogue model's licence" \
  python3 - "$ROOT/crates/models/src/catalog.json" "$LICENSES" <<'EOF'
import json, sys
text = open(sys.argv[2], encoding="utf-8").read()
missing = [m["id"] for m in json.load(open(sys.argv[1]))["models"]
           if f"({m['id']}): {m['license']}" not in text]
sys.exit(f"models missing: {missing}" if missing else 0)
EOF

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
