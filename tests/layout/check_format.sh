#!/bin/sh
# SPDX-License-Identifier: MIT
# Fails when a tracked C/C++ file differs from what .clang-format makes of it, naming the
# files. tools/format.sh finds the formatter; its exit 2 (no clang-format 14/15) is a skip.
set -u
root="$1"
if [ ! -d "$root/.git" ] && [ ! -f "$root/.git" ]; then
  echo "SKIPPED: $root is not a git checkout (the file list comes from git ls-files)"
  exit 77
fi
out=$(sh "$root/tools/format.sh" --check 2>&1)
case $? in
  0) echo "every tracked C/C++ file is formatted" ;;
  2) echo "SKIPPED: $out"; exit 77 ;;
  *) echo "not formatted (run tools/format.sh on them):"; echo "$out"; exit 1 ;;
esac
