#!/bin/sh
# SPDX-License-Identifier: MIT
# weft's conformance, language and example programs built by weftcc (sm_90 + x86_64
# images, tests/weftcc_cpu/suite.py) and run on a machine with an NVIDIA GPU but no build
# tools (the H200 machine): each program on the NVIDIA agent and on the CPU agent.
#
#   h200_weftcc.sh stage BUILD_DIR STAGE_DIR [PROGRAM...]   (on the build machine)
#       builds the programs (default: every conformance_*, language_* and example
#       program of BUILD_DIR) with BUILD_DIR's weftcc for $WEFTCC_STAGE_ARCH (default
#       sm_90,x86_64) into STAGE_DIR/bin, with the helper files the tests open
#       (child programs, code objects, the export list) and libamdhip64 plus the
#       shared libraries it needs in STAGE_DIR/lib, stripped
#       ($WEFTCC_STAGE_KEEP=1 keeps what STAGE_DIR/bin holds already: programs staged by
#       an earlier call stay, so a long staging can run one program per call)
#   h200_weftcc.sh stage-lib BUILD_DIR STAGE_DIR
#       only the helper files and the libraries (again: after a rebuilt library)
#   h200_weftcc.sh stage-base BUILD_DIR STAGE_DIR [PROGRAM...]
#       the same programs as BUILD_DIR's g++ build made them (no GPU image: their
#       kernels skip on the NVIDIA agent), with the same helper files and libraries,
#       for "skipped before / run after" counts from one device run
#   h200_weftcc.sh run STAGE_DIR [LOG_DIR]                  (on the GPU machine)
#       runs every staged program on GPU 0 and on the CPU agent; prints one line per
#       run (verdict, Catch2's totals, how many cases skipped) and the totals; full
#       logs go to LOG_DIR; $WEFT_TEST_TIMEOUT (seconds, default 180) bounds each run,
#       programs not started by $WEFT_DEADLINE (epoch seconds) are listed as not run,
#       and $WEFT_AGENTS picks the agents (default "gpu cpu"). An example (not a Catch2
#       program) that exits non-zero with hipErrorNoBinaryForGpu is NOBIN: the answer a
#       program gets on an agent its binary has no image for (a g++ build on a GPU)
# Without an sm_* image a conformance case skips on the NVIDIA agent ("cannot run
# single-source kernels"); with weftcc's image it runs there.
set -u

programs() {  # BUILD_DIR's conformance, language and example programs
  for f in "$1"/tests/conformance/conformance_* "$1"/tests/conformance/*/conformance_* \
           "$1"/tests/language/*/language_* "$1"/examples/*; do
    [ -f "$f" ] && [ -x "$f" ] || continue
    case $f in *.so|*.p|*.o|*.a) continue ;; esac
    echo "$f"
  done
}

stage() {
  base=$1
  build=$(cd "$2" && pwd) out=$3
  shift 3
  src=$(cd "$(dirname "$0")/../../.." && pwd)
  [ "${WEFTCC_STAGE_KEEP:-0}" = 1 ] || rm -rf "$out"
  mkdir -p "$out/bin" "$out/lib"
  out=$(cd "$out" && pwd)
  if [ $# -eq 0 ]; then
    for f in $(programs "$build"); do set -- "$@" "$(basename "$f")"; done
  fi
  if [ "$base" = base ]; then
    for n in "$@"; do
      for f in $(programs "$build"); do [ "$(basename "$f")" = "$n" ] && cp "$f" "$out/bin/"; done
    done
    echo "$# programs of the g++ build staged" | tee -a "$out/build.txt"
  else
    python3 "$src/tests/weftcc_cpu/suite.py" "$build" --offload-arch="${WEFTCC_STAGE_ARCH:-sm_90,x86_64}" \
      --stage "$out/bin" --no-run "$@" | tee -a "$out/build.txt" | grep -E '^[a-z_0-9]+: |programs built'
  fi
  stage_lib "$build" "$out"
}

stage_lib() {  # the files the tests open and the libraries, into STAGE_DIR
  build=$(cd "$1" && pwd) out=$2
  src=$(cd "$(dirname "$0")/../../.." && pwd)
  mkdir -p "$out/bin" "$out/lib"
  out=$(cd "$out" && pwd)
  # Files the tests open (hip_test::helper_file looks in $WEFT_TEST_HELPER_DIR).
  for f in "$build"/tests/conformance/context_kernels.so \
           "$build"/tests/conformance/module/conformance_module_kernels.so \
           "$build"/tests/language/coop/coop_kernels.so \
           "$build"/tests/conformance/*/*_child "$src"/src/api/exports.txt; do
    [ -f "$f" ] && cp "$f" "$out/bin/"
  done
  cp -L "$build"/src/libamdhip64.so.7 "$out/lib/"
  for lib in $(ldd "$build"/src/libamdhip64.so.7 | awk '/=>/ {print $3}' |
               grep -E 'libfmt|libboost_context|libzstd|libz\.' | sort -u); do
    cp -L "$lib" "$out/lib/"
  done
  for f in "$out"/bin/* "$out"/lib/*.so*; do
    case $f in *.txt) continue ;; esac
    strip --strip-unneeded "$f" 2>/dev/null
  done
  du -sh "$out"
}

run() {
  dir=$(cd "$1" && pwd) logs=${2:-/tmp/weftcc-logs}
  export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export WEFT_TEST_HELPER_DIR="$dir/bin"
  mkdir -p "$logs"
  summary="$logs/summary.txt"
  : >"$summary"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | tee -a "$summary"
  gpu=${WEFT_GPU_ORDINAL:-0} cpu=${WEFT_CPU_ORDINAL:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
  for agent in ${WEFT_AGENTS:-gpu cpu}; do
    ordinal=$gpu; [ $agent = cpu ] && ordinal=$cpu
    files=0 passed=0 cases=0 skipped=0
    for t in "$dir"/bin/*; do
      n=$(basename "$t")
      case $n in *.so|*.txt|*_child) continue ;; esac
      [ -x "$t" ] || continue
      log="$logs/${agent}_$n.log"
      if [ -n "${WEFT_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$WEFT_DEADLINE" ]; then
        echo "NOT-RUN ${agent}_$n: past WEFT_DEADLINE" | tee -a "$summary"
        continue
      fi
      case $n in
        conformance_*|language_*) WEFT_TEST_DEVICE=$ordinal timeout -s KILL "${WEFT_TEST_TIMEOUT:-180}" "$t" -d yes >"$log" 2>&1 ;;
        *) if [ $agent = gpu ]; then env WEFT_CPU_AGENT=0 timeout -s KILL 120 "$t" >"$log" 2>&1
           else env HIP_VISIBLE_DEVICES= timeout -s KILL 120 "$t" >"$log" 2>&1; fi ;;
      esac
      rc=$?
      verdict=PASS; [ $rc -eq 77 ] && verdict=SKIP; [ $rc -ne 0 ] && [ $rc -ne 77 ] && verdict="FAIL($rc)"
      case $n in
        conformance_*|language_*) ;;
        *) [ $rc -ne 0 ] && grep -q hipErrorNoBinaryForGpu "$log" && verdict=NOBIN ;;
      esac
      total=$(grep -E '^(All tests passed|test cases:)' "$log" | tail -1)
      n_cases=$(echo "$total" | sed -n 's/.*(\([0-9]*\) assertions* in \([0-9]*\) test cases*).*/\2/p; s/^test cases*: *\([0-9]*\).*/\1/p' | head -1)
      n_skip=$(grep -c 'SKIPPED:' "$log")
      files=$((files + 1)); [ $verdict = PASS ] && passed=$((passed + 1))
      cases=$((cases + ${n_cases:-0})); skipped=$((skipped + n_skip))
      echo "$verdict ${agent}_$n: ${total:-no Catch2 totals} (skipped cases: $n_skip)" | tee -a "$summary"
      if [ "$verdict" = NOBIN ]; then
        grep -m1 hipErrorNoBinaryForGpu "$log" >>"$summary"
      elif [ "$verdict" != PASS ] && [ "$verdict" != SKIP ]; then
        grep -E -B2 -A10 'FAILED|failed|with expansion|due to unexpected' "$log" | head -40 >>"$summary"
        tail -5 "$log" >>"$summary"
      fi
    done
    echo "TOTAL $agent (ordinal $ordinal): $passed/$files programs passed, $cases test cases, $skipped skipped" |
      tee -a "$summary"
  done
}

case ${1:-} in
  stage) shift; stage weftcc "$@" ;;
  stage-base) shift; stage base "$@" ;;
  stage-lib) shift; stage_lib "$@" ;;
  run) run "$2" "${3:-}" ;;
  *) echo "usage: $0 stage|stage-base BUILD STAGE [PROGRAM...] | stage-lib BUILD STAGE | run STAGE [LOGS]" >&2; exit 2 ;;
esac
