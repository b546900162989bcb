#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs each code-object fuzz target for a while and prints executions and crashes.
#   run_fuzzers.sh <build-dir> [seconds-per-target=600] [parallel=2] ["target ..."]
# Targets: elf bundle msgpack amdgpu target_id xclbin npu_object (default), and module
# (hipModuleLoadData).
# <build-dir>/tests/codeobj holds the fuzzers and the seed corpus the build made.
# The machine is shared: targets run niced, `parallel` at a time.
set -uo pipefail
dir=$1/tests/codeobj seconds=${2:-600} parallel=${3:-2}
work=$(mktemp -d)
run_one() {
  local t=$1
  mkdir -p "$work/$t"
  cp -r "$dir/corpus/$t/." "$work/$t/" 2>/dev/null || true
  # fuzz_module links the library (whose leaked runtime is not a leak) and sits beside fuzz/.
  local exe="$dir/fuzz/fuzz_$t" extra=()
  [[ $t == module ]] && exe="$dir/fuzz_module" extra=(-detect_leaks=0 -timeout=10)
  nice -n 10 "$exe" "$work/$t" "${extra[@]}" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -artifact_prefix="$work/$t-" -print_final_stats=1 >"$work/$t.log" 2>&1
  local execs crashes
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$t.log" | grep -o '[0-9]*$')
  crashes=$(ls "$work/$t-"* 2>/dev/null | wc -l)
  echo "fuzz_$t: ${execs:-?} executions in ${seconds}s, $crashes crashes"
}
read -r -a targets <<<"${4:-elf bundle msgpack amdgpu target_id xclbin npu_object}"
for ((i = 0; i < ${#targets[@]}; i += parallel)); do
  for t in "${targets[@]:i:parallel}"; do run_one "$t" & done
  wait
done
echo "logs and any crash inputs: $work"
