#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The drop-in test: real HIP programs built by Debian's hipcc (ROCm 5.2) for
# gfx90a and gfx1030, run unmodified with weft's libraries first on
# LD_LIBRARY_PATH (libamdhip64.so.5, the 5.x enum ABI, over libamdhip64.so.7):
#   1. as built: every symbol resolves (LD_BIND_NOW), registration succeeds, host
#      calls work on the CPU agent, and every launch fails with
#      hipErrorNoBinaryForGpu and a log line naming gfx90a;
#   2. with a CPU code object added to the bundle (tools/weft_bundle.py add-cpu):
#      the same programs run their kernels on the CPU agent and check results.
#   run_dropin.sh <lib-dir> <source-root> <work-dir>
set -uo pipefail
libdir=$1 root=$2 work=$3
src=$root/tests/dropin
if ! command -v hipcc >/dev/null 2>&1; then
  echo "SKIPPED: hipcc is not installed (Debian package hipcc; tools/setup.sh installs it)"
  exit 77
fi
mkdir -p "$work"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
run() {  # run <expect> <binary> <log>
  LD_LIBRARY_PATH="$libdir" LD_BIND_NOW=1 DROPIN_EXPECT=$1 "$2" >"$3" 2>&1
}
for prog in vector_add variables templates symbols; do
  echo "== $prog"
  if ! hipcc --offload-arch=gfx90a --offload-arch=gfx1030 -O1 -I"$src" -c "$src/$prog.hip" -o "$work/$prog.o" \
         >"$work/$prog.build.log" 2>&1 ||
     ! hipcc "$work/$prog.o" -o "$work/$prog" >>"$work/$prog.build.log" 2>&1; then
    cat "$work/$prog.build.log"; fail "$prog: hipcc build"; continue
  fi
  # 1. GPU code objects only.
  if run nobinary "$work/$prog" "$work/$prog.log"; then
    grep -q "arch x86_64" "$work/$prog.log" || fail "$prog: did not run on weft's CPU agent"
    grep -q "hipErrorNoBinaryForGpu: .*target x86_64.*gfx90a" "$work/$prog.log" ||
      fail "$prog: no log line naming the agent's target and gfx90a"
  else
    fail "$prog (GPU code objects only)"
  fi
  sed 's/^/   /' "$work/$prog.log"
  # 2. Plus a CPU code object built from the same kernel source.
  if ! g++ -std=c++20 -O2 -shared -fPIC -I"$root/include" -I"$src" "$src/${prog}_cpu.cpp" \
         -o "$work/${prog}_cpu.so" >"$work/${prog}_cpu.build.log" 2>&1 ||
     ! python3 "$root/tools/weft_bundle.py" add-cpu "$work/$prog.o" "$work/${prog}_cpu.so" \
         -o "$work/${prog}_all.o" >>"$work/${prog}_cpu.build.log" 2>&1 ||
     ! hipcc "$work/${prog}_all.o" -o "$work/${prog}_all" >>"$work/${prog}_cpu.build.log" 2>&1; then
    cat "$work/${prog}_cpu.build.log"; fail "$prog: building the CPU code object"; continue
  fi
  python3 "$root/tools/weft_bundle.py" list "$work/${prog}_all" | sed 's/^/   bundle: /'
  if run run "$work/${prog}_all" "$work/${prog}_all.log"; then
    grep -q "PASS $prog" "$work/${prog}_all.log" || fail "$prog: no PASS line"
  else
    fail "$prog (with a CPU code object)"
  fi
  sed 's/^/   /' "$work/${prog}_all.log"
done
# 3. The 5.x enum ABI (docs/abi5.md): a program that reads and passes 5.x enum values.
echo "== enum_abi"
if hipcc --offload-arch=gfx90a -O1 "$src/enum_abi.hip" -o "$work/enum_abi" >"$work/enum_abi.build.log" 2>&1; then
  run run "$work/enum_abi" "$work/enum_abi.log" || fail "enum_abi"
  grep -q "PASS enum_abi" "$work/enum_abi.log" || fail "enum_abi: no PASS line"
  sed 's/^/   /' "$work/enum_abi.log"
else
  cat "$work/enum_abi.build.log"; fail "enum_abi: hipcc build"
fi
if [ "$failures" -ne 0 ]; then
  echo "$failures drop-in check(s) failed"
  exit 1
fi
echo "drop-in: all programs passed"
