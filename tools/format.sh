#!/bin/sh
# SPDX-License-Identifier: MIT
# Formats weft's tracked C and C++ sources with .clang-format (clang-format 14 or 15).
#   tools/format.sh            rewrite the files in place
#   tools/format.sh --check    change nothing; list the files that differ, exit 1 if any
#   tools/format.sh FILE...    only these files (either mode)
# Not formatted: code kept verbatim from elsewhere (tests/examples/seed_vector_add.cpp, the
# seed article's program). Generated sources live in the build directory, not the tree.
set -eu
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"

check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi

formatter=
for candidate in clang-format-14 clang-format-15 clang-format; do
  if command -v "$candidate" > /dev/null 2>&1; then formatter=$candidate; break; fi
done
if [ -z "$formatter" ]; then
  echo "format.sh: clang-format 14 or 15 not found (apt-get install clang-format)" >&2
  exit 2
fi
case "$("$formatter" --version)" in
  *"version 14."* | *"version 15."*) ;;
  *) echo "format.sh: $formatter is not clang-format 14 or 15; its output would differ" >&2; exit 2 ;;
esac

list=$(mktemp)
trap 'rm -f "$list"' EXIT
if [ "$#" -gt 0 ]; then
  printf '%s\n' "$@" > "$list"
else
  git ls-files -- '*.c' '*.cc' '*.cpp' '*.h' '*.hpp' '*.cu' '*.hip' |
    grep -v -x -e 'tests/examples/seed_vector_add.cpp' > "$list" || true
fi

if [ "$check" -eq 0 ]; then
  xargs -r "$formatter" -i --style=file < "$list"
  exit 0
fi
# One clang-format process for the whole list (one per file takes minutes on a loaded
# machine); each violation is reported as "FILE:LINE:COL: error: ...".
report=$(xargs -r "$formatter" --style=file --dry-run --Werror < "$list" 2>&1) && exit 0
files=$(printf '%s\n' "$report" | sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
if [ -z "$files" ]; then printf '%s\n' "$report" >&2; exit 2; fi
printf '%s\n' "$files"
exit 1
