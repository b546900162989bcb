#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the build into a scratch prefix, then builds and runs the seed
# vector-add program the two ways a user would: g++ with `pkg-config --cflags
# --libs hip`, and CMake with find_package(hip) + hip::host.
#   consumer_test.sh <build dir> <seed source> <cmake project dir>
set -euo pipefail
build="$1" seed="$2" project="$3"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
DESTDIR="$scratch/root" meson install -C "$build" --no-rebuild --quiet >/dev/null
prefix="$(meson introspect "$build" --buildoptions | python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"))')"
libdir="$(meson introspect "$build" --buildoptions | python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="libdir"))')"
root="$scratch/root$prefix"
export PKG_CONFIG_PATH="$root/$libdir/pkgconfig"
export LD_LIBRARY_PATH="$root/$libdir"

# HIP 6.x programs' soname is a link to the library file; 5.x programs get the
# 5.x enum ABI library (docs/abi5.md), which depends on libamdhip64.so.7.
real="$(readlink -f "$root/$libdir/libamdhip64.so.7")"
link="$root/$libdir/libamdhip64.so.6"
[ -L "$link" ] || { echo "FAIL: $link is not installed as a symbolic link"; exit 1; }
[ "$(readlink -f "$link")" = "$real" ] || { echo "FAIL: $link does not resolve to $real"; exit 1; }
abi5="$(readlink -f "$root/$libdir/libamdhip64.so.5")"
[ "$(basename "$abi5")" = libamdhip64_abi5.so.5 ] || { echo "FAIL: libamdhip64.so.5 is $abi5, not the 5.x ABI library"; exit 1; }
readelf -d "$abi5" | grep -q 'NEEDED.*libamdhip64.so.7' || { echo "FAIL: $abi5 does not depend on libamdhip64.so.7"; exit 1; }
echo "== libamdhip64.so.6 -> $(basename "$real"), libamdhip64.so.5 -> $(basename "$abi5")"

echo "== pkg-config: $(pkg-config --define-variable=prefix="$root" --cflags --libs hip)"
g++ -std=c++17 -o "$scratch/seed_pc" "$seed" $(pkg-config --define-variable=prefix="$root" --cflags --libs hip)
"$scratch/seed_pc"

if command -v cmake >/dev/null; then
  echo "== CMake find_package(hip)"
  cmake -S "$project" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$root" -DSEED_SOURCE="$seed" \
    -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$scratch/cmake" >/dev/null
  "$scratch/cmake/seed_vector_add"
else
  echo "SKIPPED: cmake not installed"
  exit 77
fi
echo "consumer builds ran"
