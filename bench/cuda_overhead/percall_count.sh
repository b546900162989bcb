#!/bin/sh
# SPDX-License-Identifier: MIT
# Instructions per call of weft's per-call paths on the fake libcuda
# (fake/fake_libcuda.cpp), counted by callgrind in percall_loop: the HIP call
# against the same CUDA calls made straight through libcuda. The fake driver's
# own instructions are in both columns. Load-independent: runs on a busy
# machine without a GPU.
#   percall_count.sh BUILD_DIR [ITERATIONS]    (valgrind on PATH)
set -eu
build=$(cd "$1" && pwd)
iterations=${2:-2000}
bin="$build/bench/cuda_overhead/percall_loop"
lib="$build/bench/cuda_overhead/fake"
[ -x "$bin" ] && [ -f "$lib/libcuda.so.1" ] || {
  echo "percall_count.sh: build percall_loop and the fake libcuda first" >&2
  exit 2
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {  # row -> instructions per call
  LD_LIBRARY_PATH="$lib" valgrind --tool=callgrind --callgrind-out-file="$out/$1" \
    --toggle-collect='*measured_*' "$bin" "$1" "$iterations" >"$out/$1.log" 2>&1 || {
    cat "$out/$1.log" >&2
    exit 1
  }
  awk -v n="$iterations" '/^(summary|totals):/ { printf "%.0f", $2 / n; exit }' "$out/$1"
}
printf '| row | direct table | weft | weft - direct |\n|---|---:|---:|---:|\n'
for pair in "hipModuleLaunchKernel:launch:direct_launch" \
            "hipLaunchKernel (registered):registered:direct_launch" \
            "hipEventRecord + hipEventSynchronize:event:direct_event" \
            "hipGraphExecKernelNodeSetParams:setparams:direct_setparams"; do
  name=${pair%%:*} rest=${pair#*:}
  row=${rest%%:*} direct=${rest#*:}
  w=$(count "$row") d=$(count "$direct")
  printf '| %s | %s | %s | %s |\n' "$name" "$d" "$w" "$((w - d))"
done
