#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds fuzz_module: hipModuleLoadData end to end, against the built library.
#   build_module_fuzzer.sh <clang++> <source-root> <libamdhip64.so> <out-file> <seed CPU code object>
#                          <parser sources (lib/codeobj)...>
# The library is the build's own (not instrumented); the target also links
# instrumented copies of the code-object checks for libFuzzer's coverage.
set -euo pipefail
cxx=$1 root=$2 lib=$3 out=$4 seed=$5
shift 5
flags=(-std=c++20 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -I"$root/include" -DWEFT_FUZZ_TRUSTED_CODE="\"$seed\"")
srcs=("$@" "$root/drivers/cpu/object_check.cpp")
"$cxx" "${flags[@]}" -fsanitize=fuzzer "${srcs[@]}" "$root/tests/codeobj/fuzz/fuzz_module.cpp" \
  "$lib" -Wl,-rpath,"$(dirname "$lib")" -lfmt -lz -lzstd -o "$out"
