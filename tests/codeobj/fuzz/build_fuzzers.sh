#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the code-object fuzz targets with clang's libFuzzer, ASan and UBSan.
#   build_fuzzers.sh <clang++> <source-root> <out-dir> <parser sources (lib/codeobj)...>
set -euo pipefail
cxx=$1 root=$2 out=$3
shift 3
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
       -I"$root/include")
mkdir -p "$out/obj"
objs=()
for src in "$@"; do
  obj=$out/obj/$(basename "$src" .cpp).o
  "$cxx" "${flags[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done
for t in elf bundle msgpack amdgpu target_id xclbin npu_object; do
  "$cxx" "${flags[@]}" -fsanitize=fuzzer "$root/tests/codeobj/fuzz/fuzz_$t.cpp" "${objs[@]}" -lz -lzstd \
    -o "$out/fuzz_$t"
done
