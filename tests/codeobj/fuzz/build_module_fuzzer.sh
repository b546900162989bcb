#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds fuzz_module: hipModuleLoadData end to end, against the built library.
#   build_module_fuzzer.sh <clang++> <source-root> <libamdhip64.so> <out-file>
# The library is the build's own (not instrumented), so libFuzzer's coverage
# comes from the target only: it mutates blindly around the seeds, and ASan and
# the guard page catch what goes wrong.
set -euo pipefail
cxx=$1 root=$2 lib=$3 out=$4
"$cxx" -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$root/include" "$root/tests/codeobj/fuzz/fuzz_module.cpp" "$lib" -Wl,-rpath,"$(dirname "$lib")" -o "$out"
