#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the code-object fuzz targets with clang's libFuzzer, ASan and UBSan.
#   build_fuzzers.sh <clang++> <source-root> <out-dir>
set -euo pipefail
cxx=$1 root=$2 out=$3
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
       -I"$root/include")
mkdir -p "$out/obj"
objs=()
for f in amdgpu bundle elf image msgpack target_id; do
  "$cxx" "${flags[@]}" -c "$root/src/codeobj/$f.cpp" -o "$out/obj/$f.o"
  objs+=("$out/obj/$f.o")
done
for t in elf bundle msgpack amdgpu target_id; do
  "$cxx" "${flags[@]}" -fsanitize=fuzzer "$root/tests/codeobj/fuzz/fuzz_$t.cpp" "${objs[@]}" -lz -lzstd \
    -o "$out/fuzz_$t"
done
