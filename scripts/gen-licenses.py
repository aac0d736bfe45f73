#!/usr/bin/env python3
"""Writes the licences file the Linux packages install (docs/packaging.md#licences).

Generated from the lock files, never by hand:
  - the Rust crates compiled into `vibelife` and `vibe` with the embedded engine: the
    dependency graph `cargo metadata` resolves from Cargo.lock (normal dependencies of the two
    binaries' packages, for the target being packaged; build scripts and tests do not ship);
  - the npm packages inside the UI: ui/package-lock.json's production packages (not `dev`);
  - each package's licence files (LICENSE*, LICENCE*, COPYING*, NOTICE*, COPYRIGHT* at the top of
    the crate or npm package, and llama.cpp's own inside llama-cpp-sys-2), identical texts once;
plus the data and models the app ships or offers: GeoNames' CC-BY attribution
(crates/charts/data/ATTRIBUTION) and the model catalogue's licences (crates/models).

Usage: gen-licenses.py METADATA_JSON OUTPUT
  METADATA_JSON: output of `cargo metadata --locked --format-version 1 --filter-platform <triple>
  --features vibelife/local-llm,vibe-cli/local-llm` (scripts/package.sh runs it).
Fails (exit 1) when a shipped crate or npm package declares no licence.
"""

import hashlib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY_PACKAGES = ("vibelife", "vibe-cli")
LICENSE_FILE = re.compile(r"^(LICEN[CS]E|COPYING|NOTICE|COPYRIGHT|UNLICENSE)([-_.].*)?$", re.I)
# Licence files below a package's top folder that cover code compiled into the binaries.
EXTRA_LICENSE_FILES = {"llama-cpp-sys-2": ["llama.cpp/LICENSE"]}


def licence_files(folder, extra=()):
    """(relative path, text) of the licence files of a package folder."""
    found = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return found
    for name in names + list(extra):
        path = os.path.join(folder, name)
        if (name in extra or LICENSE_FILE.match(name)) and os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                found.append((name, f.read().strip()))
    return found


def shipped_crates(metadata):
    """The packages compiled into the binaries: normal dependencies reachable from them."""
    packages = {p["id"]: p for p in metadata["packages"]}
    nodes = {n["id"]: n for n in metadata["resolve"]["nodes"]}
    roots = [p["id"] for p in metadata["packages"] if p["name"] in BINARY_PACKAGES
             and p["id"] in metadata["workspace_members"]]
    if len(roots) != len(BINARY_PACKAGES):
        sys.exit(f"gen-licenses: {BINARY_PACKAGES} not all in the cargo metadata")
    seen, todo = set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        for dep in nodes[pid]["deps"]:
            if any(k["kind"] is None for k in dep["dep_kinds"]):
                todo.append(dep["pkg"])
    workspace = set(metadata["workspace_members"])
    return sorted((packages[i] for i in seen if i not in workspace),
                  key=lambda p: (p["name"], p["version"]))


def npm_packages():
    """(name, version, licence, folder) of the UI's production npm packages."""
    with open(os.path.join(ROOT, "ui/package-lock.json"), encoding="utf-8") as f:
        lock = json.load(f)
    out = []
    for path, entry in sorted(lock.get("packages", {}).items()):
        if not path or entry.get("dev") or entry.get("devOptional"):
            continue
        name = path.split("node_modules/")[-1]
        lic = entry.get("license") or ""
        out.append((name, entry.get("version", ""), lic, os.path.join(ROOT, "ui", path)))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        metadata = json.load(f)
    version = next(p["version"] for p in metadata["packages"] if p["name"] == "vibelife")
    texts = {}  # sha256 -> (text, [package names])
    problems = []

    def add_texts(label, files):
        for rel, text in files:
            key = hashlib.sha256(text.encode()).hexdigest()
            texts.setdefault(key, (text, []))[1].append(f"{label} ({rel})")

    out = [f"VibeLife {version}: licences of what this package contains", "",
           "VibeLife itself: MIT.", ""]

    out += ["=" * 78, "Data shipped inside the app", "=" * 78, ""]
    with open(os.path.join(ROOT, "crates/charts/data/ATTRIBUTION"), encoding="utf-8") as f:
        out += [f.read().strip(), ""]

    out += ["=" * 78, "Models the app offers to download (not included in this package)",
            "=" * 78, ""]
    with open(os.path.join(ROOT, "crates/models/src/catalog.json"), encoding="utf-8") as f:
        catalog = json.load(f)
    for m in catalog["models"]:
        out.append(f"{m['name']} ({m['id']}): {m['license']}, {m['license_url']}")
    out.append("")

    crates = shipped_crates(metadata)
    out += ["=" * 78, f"Rust crates compiled into vibelife and vibe ({len(crates)}, from Cargo.lock)",
            "=" * 78, ""]
    for p in crates:
        lic = p.get("license") or ""
        if not lic and p.get("license_file"):
            lic = f"see {os.path.basename(p['license_file'])}"
        if not lic:
            problems.append(f"crate {p['name']} {p['version']} declares no licence")
        source = p.get("repository") or ""
        out.append(f"{p['name']} {p['version']}: {lic}" + (f"  <{source}>" if source else ""))
        folder = os.path.dirname(p["manifest_path"])
        add_texts(f"{p['name']} {p['version']}",
                  licence_files(folder, EXTRA_LICENSE_FILES.get(p["name"], ())))
    out.append("")

    npm = npm_packages()
    out += ["=" * 78, f"npm packages inside the UI ({len(npm)}, from ui/package-lock.json)",
            "=" * 78, ""]
    for name, ver, lic, folder in npm:
        if not lic:
            problems.append(f"npm package {name} {ver} declares no licence")
        out.append(f"{name} {ver}: {lic}")
        add_texts(f"{name} {ver}", licence_files(folder))
    out.append("")

    out += ["=" * 78, "Licence texts (each text once, with the packages it came with)", "=" * 78]
    for text, owners in sorted(texts.values(), key=lambda t: t[1][0]):
        out += ["", "-" * 78, "From: " + "; ".join(owners), "-" * 78, "", text]

    if problems:
        sys.exit("gen-licenses: " + "; ".join(problems))
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
