#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs weft's tests and the cuda_overhead benchmark on a machine with an NVIDIA
# GPU but no build tools (the H200 machine), from a build made elsewhere.
#
#   h200.sh stage BUILD_DIR STAGE_DIR   (on the build machine) copies the test
#       binaries, kernels, libamdhip64 and the shared libraries it needs into
#       STAGE_DIR/{bin,lib}, stripped
#   h200.sh run STAGE_DIR [LOG_DIR]     (on the GPU machine) runs the NVIDIA
#       driver tests, the conformance suite on the GPU agent and on the CPU agent,
#       and the benchmark; prints a summary; full logs go to LOG_DIR
set -u

stage() {
  build=$1 out=$2
  rm -rf "$out" && mkdir -p "$out/bin" "$out/lib"
  for f in "$build"/tests/conformance/conformance_* "$build"/tests/conformance/*/conformance_* \
           "$build"/tests/drivers/contract/contract_* "$build"/tests/drivers/cuda/cuda_* \
           "$build"/tests/drivers/cuda/kernels.* "$build"/bench/cuda_overhead/cuda_overhead \
           "$build"/bench/cuda_overhead/kernels.cubin; do
    case $f in *.p|*.o) continue ;; esac
    [ -f "$f" ] || continue
    case $f in
      */bench/cuda_overhead/kernels.cubin) mkdir -p "$out/bench"; cp "$f" "$out/bench/" ;;
      */cuda_overhead) mkdir -p "$out/bench"; cp "$f" "$out/bench/" ;;
      *) cp "$f" "$out/bin/" ;;
    esac
  done
  # Files the conformance tests open (hip_test::helper_file finds them next to the
  # executable, or in $WEFT_TEST_HELPER_DIR): code objects, the child programs of
  # the process-sharing tests, the export list.
  src=$(cd "$(dirname "$0")/../../.." && pwd)
  for f in "$build"/tests/conformance/context_kernels.so \
           "$build"/tests/conformance/module/conformance_module_kernels.so \
           "$build"/tests/conformance/*/*_child "$src"/src/api/exports.txt; do
    [ -f "$f" ] && cp "$f" "$out/bin/"
  done
  cp -L "$build"/src/libamdhip64.so.7 "$out/lib/"
  for lib in $(ldd "$build"/src/libamdhip64.so.7 "$out"/bin/cuda_driver_gpu | awk '/=>/ {print $3}' |
               grep -E 'libfmt|libboost_context|libzstd|libz\.' | sort -u); do
    cp -L "$lib" "$out/lib/"
  done
  strip --strip-unneeded "$out"/bin/*_child "$out"/bin/conformance_* "$out"/bin/contract_* "$out"/bin/cuda_* "$out"/bench/cuda_overhead \
        "$out"/lib/*.so* 2>/dev/null
  du -sh "$out"
}

run() {
  dir=$(cd "$1" && pwd) logs=${2:-/tmp}
  export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export WEFT_TEST_HELPER_DIR="$dir/bin"
  mkdir -p "$logs"
  summary="${WEFT_SUMMARY:-$logs/summary.txt}"
  : >"$summary"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$summary"
  one() {  # name, then the command
    name=$1; shift
    start=$(date +%s.%N)
    timeout -s KILL "${WEFT_TEST_TIMEOUT:-90}" "$@" -d yes >"$logs/$name.log" 2>&1
    rc=$?
    secs=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")
    verdict=PASS; [ $rc -eq 77 ] && verdict=SKIP; [ $rc -ne 0 ] && [ $rc -ne 77 ] && verdict="FAIL($rc)"
    counts=$(grep -E '^(All tests passed|test cases:)' "$logs/$name.log" | tail -1)
    echo "$verdict $name ${secs}s: $counts" | tee -a "$summary"
    if [ "$verdict" != PASS ] && [ "$verdict" != SKIP ]; then  # the evidence, in the summary
      grep -E -B2 -A12 'FAILED|failed|with expansion|due to unexpected' "$logs/$name.log" | head -80 >>"$summary"
      tail -5 "$logs/$name.log" >>"$summary"
    fi
  }
  for t in cuda_driver_fake cuda_driver_gpu cuda_hip_api cuda_fault cuda_weftcc cuda_weftcc_program; do
    one "$t" "$dir/bin/$t"
  done
  # The driver contract suite; contract_cuda against the real libcuda.
  for t in "$dir"/bin/contract_*; do
    n=$(basename "$t")
    case $n in
      contract_null_hip) WEFT_NULL_DRIVER=1 one "$n" "$t" ;;
      *) WEFT_CONTRACT_REAL_CUDA=1 one "$n" "$t" ;;
    esac
  done
  # GPUs come first, the CPU agent after them.
  gpu=${WEFT_GPU_ORDINAL:-0} cpu=${WEFT_CPU_ORDINAL:-$(nvidia-smi -L | grep -c '^GPU')}
  for t in "$dir"/bin/conformance_*; do
    n=$(basename "$t")
    case $n in *.so) continue ;; esac  # a test's code object, not a test
    WEFT_TEST_DEVICE=$gpu one "gpu_$n" "$t"
  done
  for t in "$dir"/bin/conformance_*; do
    n=$(basename "$t")
    case $n in *.so) continue ;; esac
    WEFT_TEST_DEVICE=$cpu one "cpu_$n" "$t"
  done
  if [ -x "$dir/bench/cuda_overhead" ]; then
    timeout -s KILL 240 "$dir/bench/cuda_overhead" >"$logs/bench.txt" 2>&1
    echo "bench rc=$?" | tee -a "$summary"
    cat "$logs/bench.txt"
  fi
}

case ${1:-} in
  stage) stage "$2" "$3" ;;
  run) run "$2" "${3:-}" ;;
  *) echo "usage: $0 stage BUILD STAGE | run STAGE [LOGS]" >&2; exit 2 ;;
esac
