#!/usr/bin/env bash
# Builds the Linux x86-64 packages (docs/packaging.md): the release app and `vibe` with the
# embedded engine (scripts/build-app.sh), then a `.deb` and an `.rpm` written by the Tauri
# bundler (the npm package @tauri-apps/cli at the tauri crate's version, installed once under
# $HOME/.cache/vibelife/tools). Nothing is downloaded at bundle time. Prints the `.deb`'s and
# the `.rpm`'s absolute paths on its last two lines.
#
# What goes where: /usr/bin/vibelife and /usr/bin/vibe; llama.cpp's shared libraries and CPU
# backend modules in /usr/lib/vibelife (the binaries' rpath, never the system's library path);
# the built-in skills in /usr/share/vibelife/skills; the desktop entry, the icons at every
# freedesktop size (made here from icons/icon.png), the AppStream metainfo and the licences file
# (scripts/gen-licenses.py) under /usr/share. With TAURI_SIGNING_PRIVATE_KEY (a release machine):
# each package's update signature (`.sig`) and the update server's latest.json beside them.
source "$(dirname "$0")/env.sh"
source "$ROOT/scripts/app-env.sh"
source "$ROOT/scripts/ui-env.sh"

# The Tauri CLI: its version is the tauri crate's in Cargo.lock (the bundler patches the binary
# with what the crate expects). A prebuilt binary inside the npm package; kept per version.
TAURI_VERSION="$(awk '/^name = "tauri"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)"
TAURI_CLI_DIR="$HOME/.cache/vibelife/tools/tauri-cli-$TAURI_VERSION"
TAURI="$TAURI_CLI_DIR/node_modules/.bin/tauri"
if ! "$TAURI" --version >/dev/null 2>&1; then
  echo "installing @tauri-apps/cli@$TAURI_VERSION into $TAURI_CLI_DIR" >&2
  mkdir -p "$TAURI_CLI_DIR"
  npm install --no-audit --no-fund --no-save --prefix "$TAURI_CLI_DIR" \
    "@tauri-apps/cli@$TAURI_VERSION" >&2
fi

APP="$(bash "$ROOT/scripts/build-app.sh" | tail -n 1)"
OUT="$(dirname "$APP")"

# Everything the bundler reads is staged here: stripped copies of the binaries and libraries
# (the build's own stay as they are), the icons, the licences, and the bundler's "app folder"
# (the CLI wants tauri.conf.json beside a Cargo.toml with a [package]; ours live apart).
STAGE="$CARGO_TARGET_DIR/package"
rm -rf "$STAGE"
mkdir -p "$STAGE/target/release" "$STAGE/bin" "$STAGE/lib" "$STAGE/app"
echo "== staging the package's files in $STAGE" >&2
install -m 755 "$APP" "$STAGE/target/release/vibelife"
install -m 755 "$OUT/vibe" "$STAGE/bin/vibe"
# Each library under the name the loader asks for (its SONAME; the CPU modules are opened by
# path under their file name), once: no development symlinks, no duplicate copies.
for lib in "$OUT"/lib*.so*; do
  real="$(readlink -f "$lib")"
  soname="$(readelf -d "$real" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
  name="${soname:-$(basename "$real")}"
  [ -e "$STAGE/lib/$name" ] || install -m 644 "$real" "$STAGE/lib/$name"
done
strip --strip-unneeded "$STAGE/target/release/vibelife" "$STAGE/bin/vibe" "$STAGE"/lib/*.so*

echo "== icons (freedesktop sizes from icons/icon.png)" >&2
ICON_SIZES=(16 22 24 32 36 48 64 72 96 128 192 256 512)
"$TAURI" icon "$ROOT/icons/icon.png" -o "$STAGE/icons" "${ICON_SIZES[@]/#/-p}" >&2

echo "== licences (scripts/gen-licenses.py)" >&2
cargo metadata --locked --format-version 1 --filter-platform x86_64-unknown-linux-gnu \
  --features vibelife/local-llm,vibe-cli/local-llm >"$STAGE/metadata.json"
python3 "$ROOT/scripts/gen-licenses.py" "$STAGE/metadata.json" "$STAGE/LICENSES.txt"

# The bundler's app folder: the configuration (tauri.conf.json with this run's paths merged in)
# and a stand-in Cargo.toml naming the package and its binary.
python3 - "$ROOT" "$STAGE" <<'EOF'
import json, os, sys
root, stage = sys.argv[1], sys.argv[2]
with open(os.path.join(root, "tauri.conf.json"), encoding="utf-8") as f:
    conf = json.load(f)
files = {
    "/usr/bin/vibe": f"{stage}/bin/vibe",
    "/usr/lib/vibelife/": f"{stage}/lib/",
    "/usr/share/vibelife/skills/": f"{root}/skills/",
    "/usr/share/metainfo/app.vibelife.desktop.metainfo.xml":
        f"{root}/packaging/linux/vibelife.metainfo.xml",
    "/usr/share/doc/vibelife/LICENSES.txt": f"{stage}/LICENSES.txt",
}
# The package and desktop file names come from productName: lower case on Linux (`vibelife`,
# not the kebab-case `vibe-life` the bundler would make of "VibeLife"); the window and the
# menu entry still say VibeLife (the desktop template).
conf["productName"] = "vibelife"
conf["build"]["frontendDist"] = f"{root}/ui/dist"
bundle = conf["bundle"]
bundle["icon"] = sorted(f"{stage}/icons/{n}" for n in os.listdir(f"{stage}/icons"))
for kind in ("deb", "rpm"):
    linux = bundle["linux"][kind]
    linux["files"] = files
    linux["desktopTemplate"] = f"{root}/packaging/linux/vibelife.desktop"
with open(os.path.join(stage, "app", "tauri.conf.json"), "w", encoding="utf-8") as f:
    json.dump(conf, f, indent=2)
EOF
VERSION="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$ROOT/tauri.conf.json")"
cat >"$STAGE/app/Cargo.toml" <<EOF
# Generated by scripts/package.sh for the Tauri bundler; not a crate of the workspace.
[package]
name = "vibelife"
version = "$VERSION"
edition = "2024"
[[bin]]
name = "vibelife"
path = "$ROOT/src-tauri/src/main.rs"
[workspace]
EOF

echo "== bundling (.deb, .rpm)" >&2
rm -rf "$STAGE/target/release/bundle"
(cd "$STAGE/app" && CARGO_TARGET_DIR="$STAGE/target" "$TAURI" bundle --bundles deb,rpm >&2)
DEB="$(ls "$STAGE"/target/release/bundle/deb/*.deb)"
RPM="$(ls "$STAGE"/target/release/bundle/rpm/*.rpm)"
# The bundler compresses the .deb with gzip (no setting); xz makes it 37% smaller (the size goal
# in docs/performance.md): the same files, control data and md5sums, repacked by dpkg-deb.
echo "== recompressing the .deb with xz" >&2
rm -rf "$STAGE/deb-root"
dpkg-deb -R "$DEB" "$STAGE/deb-root"
dpkg-deb --root-owner-group -Zxz -b "$STAGE/deb-root" "$DEB" >&2
rm -rf "$STAGE/deb-root"

# Update artifacts (docs/packaging.md#updates), only on a release machine that gives the private
# key (TAURI_SIGNING_PRIVATE_KEY: the key or its file; TAURI_SIGNING_PRIVATE_KEY_PASSWORD): each
# package's minisign signature bound to the version (`<package>.sig`, signed after the xz repack,
# so the bundler's own signing is not used) and the update server's latest.json. Without the key
# nothing more is written.
if [ -n "${TAURI_SIGNING_PRIVATE_KEY:-}" ]; then
  echo "== signing the update artifacts, writing latest.json" >&2
  # `signer sign` reads the key itself from the variable, but a file only through -f (and then
  # the variable must be unset, not empty).
  sign=("$TAURI" signer sign)
  if [ -f "$TAURI_SIGNING_PRIVATE_KEY" ]; then
    sign=(env -u TAURI_SIGNING_PRIVATE_KEY "$TAURI" signer sign -f "$TAURI_SIGNING_PRIVATE_KEY")
  fi
  for pkg in "$DEB" "$RPM"; do
    rm -f "$pkg.sig"
    "${sign[@]}" --app-version "$VERSION" "$pkg" >&2
    [ -s "$pkg.sig" ] || { echo "no signature was written for $pkg" >&2; exit 1; }
  done
  python3 - "$VERSION" "$DEB" "$RPM" "${VIBELIFE_UPDATE_BASE_URL:-https://updates.vibelife.app/$VERSION/}" \
    "${VIBELIFE_RELEASE_NOTES:-}" >"$STAGE/latest.json" <<'PY'
import datetime, json, os, sys
version, deb, rpm, base, notes = sys.argv[1:6]
def entry(pkg):
    with open(pkg + ".sig", encoding="utf-8") as f:
        return {"signature": f.read().strip(), "url": base.rstrip("/") + "/" + os.path.basename(pkg)}
now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
json.dump({
    "version": version,
    "notes": notes,
    "pub_date": now.isoformat().replace("+00:00", "Z"),
    "platforms": {"linux-x86_64-deb": entry(deb), "linux-x86_64-rpm": entry(rpm)},
}, sys.stdout, indent=2)
print()
PY
  echo "update manifest: $STAGE/latest.json (signatures: $DEB.sig, $RPM.sig)" >&2
fi
echo "$DEB"
echo "$RPM"
