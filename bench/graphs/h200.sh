#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/graphs on a machine with an NVIDIA GPU but no build tools (the H200
# machine), from a build made elsewhere (bench/RESULTS.md, "Graphs (issue 5)").
#
#   h200.sh stage BUILD_DIR STAGE_DIR   copies bench_graphs, bench_graphs_cuda,
#       graph_kernels.cubin, the graph test binaries, libamdhip64 and the
#       libraries it needs into STAGE_DIR/{bin,lib}, stripped
#   h200.sh run STAGE_DIR [LOG_DIR]     runs bench_graphs_cuda on the first
#       NVIDIA agent, the graph tests on GPU 0 and bench_graphs on the CPU agent
set -u

stage() {
  build=$1 out=$2
  rm -rf "$out" && mkdir -p "$out/bin" "$out/lib"
  cp "$build"/bench/graphs/bench_graphs "$build"/bench/graphs/bench_graphs_cuda \
     "$build"/bench/graphs/graph_kernels.cubin "$build"/tests/graph/graph_explicit \
     "$build"/tests/graph/graph_exec "$build"/tests/graph/graph_capture "$out/bin/"
  cp -L "$build"/src/libamdhip64.so.7 "$out/lib/"
  for lib in $(ldd "$build"/src/libamdhip64.so.7 | awk '/=>/ {print $3}' |
               grep -E 'libfmt|libboost_context|libzstd' | sort -u); do
    cp -L "$lib" "$out/lib/"
  done
  for f in "$out"/bin/bench_graphs "$out"/bin/bench_graphs_cuda "$out"/bin/graph_* "$out"/lib/*.so*; do
    case $f in *.cubin) ;; *) strip --strip-unneeded "$f" ;; esac
  done
  du -sh "$out"
}

run() {
  dir=$(cd "$1" && pwd) logs=${2:-/tmp}
  export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  mkdir -p "$logs"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  timeout -s KILL 200 "$dir/bin/bench_graphs_cuda" 2>&1 | tee "$logs/bench_graphs_cuda.txt"
  for t in graph_explicit graph_exec graph_capture; do
    WEFT_TEST_DEVICE=0 timeout -s KILL 120 "$dir/bin/$t" >"$logs/gpu_$t.log" 2>&1
    echo "gpu $t rc=$? $(grep -E '^(All tests passed|test cases:)' "$logs/gpu_$t.log" | tail -1)"
  done
  cpu=$(nvidia-smi -L | grep -c '^GPU')  # GPUs first, then the CPU agent
  timeout -s KILL 120 "$dir/bin/bench_graphs" --device "$cpu" 2>&1 | tee "$logs/bench_graphs_cpu.txt"
}

case ${1:-} in
  stage) stage "$2" "$3" ;;
  run) run "$2" "${3:-}" ;;
  *) echo "usage: $0 stage BUILD STAGE | run STAGE [LOGS]" >&2; exit 2 ;;
esac
