#!/bin/sh
# SPDX-License-Identifier: MIT
# Fails when a tracked C/C++ file differs from what .clang-format makes of it, naming the
# files; skips (77) when no clang-format 14 or 15 is installed.
set -u
root="$1"
for candidate in clang-format-14 clang-format-15 clang-format; do
  if command -v "$candidate" > /dev/null 2>&1; then
    case "$("$candidate" --version)" in
      *"version 14."* | *"version 15."*) found=1; break ;;
    esac
  fi
done
if [ -z "${found:-}" ]; then
  echo "SKIPPED: clang-format 14 or 15 not installed"
  exit 77
fi
if [ ! -d "$root/.git" ] && [ ! -f "$root/.git" ]; then
  echo "SKIPPED: $root is not a git checkout (the file list comes from git ls-files)"
  exit 77
fi
if ! out=$(sh "$root/tools/format.sh" --check); then
  echo "not formatted (run tools/format.sh on them):"
  echo "$out"
  exit 1
fi
echo "every tracked C/C++ file is formatted"
