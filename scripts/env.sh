# Shared set-up for scripts/run.sh and scripts/test.sh (sourced, not run).
# Installs what a fresh Debian machine with only the Rust toolchain lacks, and only when missing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source "$ROOT/scripts/install-lib.sh"

# Build outside the clone so a fresh clone (CI) reuses earlier builds.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/vibelife/target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# A CI run compiles each changed crate once: incremental caches buy it nothing and pile up in
# the shared target folder (22 GB of them filled this machine's disk mid-run in session 19).
if [ "${CI:-}" = "true" ]; then export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"; fi

# Debian packages the build and tests need (none of the Rust crates link system libraries
# except through these). python3: the `run_script` tool runs a skill's `.py` scripts with it,
# and its tests run one; scripts/gen-gazetteer.py also needs it. fonts-noto-cjk: the PDF
# report's font (found on the system, never downloaded); poppler-utils: `pdftotext`, with
# which the PDF report's tests read it back. libssl-dev: the headers and libcrypto SQLCipher's
# page encryption is built against (docs/privacy.md#the-crypto-library). cmake, g++, clang and
# libclang-dev: the embedded llama.cpp engine's build (CMake compiles llama.cpp, bindgen reads
# its headers through libclang; docs/local-model.md#building).
APT_PACKAGES=(pkg-config gcc g++ libssl-dev python3 fonts-noto-cjk poppler-utils cmake clang
  libclang-dev)

apt_install_missing "the build and tests" "${APT_PACKAGES[@]}"

for component in clippy rustfmt; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    rustup component add "$component"
  fi
done

# The embedded llama.cpp engine's package set (scripts/test.sh, scripts/build-app.sh,
# scripts/package.sh, scripts/bench-local-model.sh): built once, in release only. One set for
# every command that builds it: cargo unifies build-dependency and proc-macro features per
# invocation, and another set would give llama-cpp-sys-2 another fingerprint, i.e. a second
# llama.cpp compile (every CPU variant: docs/local-model.md#building). The desktop app is in the
# set because its proc-macros turn on `span-locations` (proc-macro2) and `visit` (syn), which
# bindgen, llama-cpp-sys-2's build script, shares; its `custom-protocol` feature (added by the
# app's builds) changes no host crate.
LOCAL_ENGINE=(--release --locked -p vibe-local-llm -p vibe-core -p vibe-cli -p vibelife
  --features vibe-local-llm/engine,vibe-core/local-llm,vibe-cli/local-llm,vibelife/local-llm)

# A stock SQLCipher 4 build, for the test that opens the app's database with `PRAGMA key` alone
# (crates/store/tests/standard_sqlcipher.rs, docs/privacy.md#opening-your-data-with-standard-tools):
# the `sqlcipher3-binary` wheel from PyPI, in a venv under $HOME/.cache/vibelife.
SQLCIPHER_VENV="$HOME/.cache/vibelife/sqlcipher-venv"
ensure_venv "$SQLCIPHER_VENV" sqlcipher3 sqlcipher3-binary
export VIBE_SQLCIPHER_PYTHON="$SQLCIPHER_VENV/bin/python"

# The JSONTestSuite (test data that must not be copied into the repository) for the
# incremental JSON parser's suite test: the project's shared data beside the checkout, or the
# machine's shared copy when CI runs a clone elsewhere. Absent on other machines: that one
# test then skips, allowed by tests/skip-allow.txt.
if [ -z "${VIBE_JSON_TEST_SUITE:-}" ]; then
  for suite in "$ROOT/../shared/data/JSONTestSuite" /work/shared/data/JSONTestSuite; do
    if [ -d "$suite/test_parsing" ]; then
      export VIBE_JSON_TEST_SUITE="$suite"
      break
    fi
  done
fi
