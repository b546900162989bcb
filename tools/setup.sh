#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# README command 1: install Debian 12 packages, configure, build, and run the
# main example on the CPU agent.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PACKAGES=(
  g++ clang meson ninja-build pkg-config cmake python3 binutils
  libfmt-dev catch2 libboost-context-dev
  libamdhip64-dev libhsa-runtime-dev libhsakmt-dev libdrm-dev
  zlib1g-dev libzstd-dev hipcc libclang-rt-dev clang-15 clang-tools-15 llvm-15-dev
  rocm-device-libs lld-15
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Same options as tools/test.sh uses for this directory, so that the test command
# reuses this build instead of recompiling everything.
if [ -f build/build.ninja ]; then
  meson setup --reconfigure build -Dwerror=true >/dev/null
else
  meson setup build -Dwerror=true
fi
ninja -C build
build/examples/vector_add
