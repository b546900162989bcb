#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The source layout's one rule the compiler cannot see (docs/architecture.md,
# "Source layout"): drivers/ and lib/ are built with only include/ and their own
# folder on the include path, so an include of src/ fails to compile, except
# through a relative path that climbs out of the folder. This finds those, and
# meson files there that put src/ on a path or compile a file from another folder.
#   check_includes.sh <source-root>
set -uo pipefail
root=$1
failed=0
includes=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]*\.\./' \
  --include='*.cpp' --include='*.hpp' --include='*.h' --include='*.c' --include='*.S' \
  "$root/drivers" "$root/lib")
if [[ -n $includes ]]; then
  echo "includes that leave their folder (drivers/ and lib/ see only include/ and their own folder):"
  echo "$includes"
  failed=1
fi
builds=$(grep -rnE "src_inc|'\.\./" --include='meson.build' "$root/drivers" "$root/lib")
if [[ -n $builds ]]; then
  echo "meson files under drivers/ or lib/ that reach another folder's sources or src/:"
  echo "$builds"
  failed=1
fi
# The check itself must see the tree: an empty folder means a wrong root.
if [[ ! -f $root/drivers/cpu/driver.cpp || ! -f $root/lib/common/log.cpp ]]; then
  echo "no drivers/cpu or lib/common under $root"
  failed=1
fi
if (( failed == 0 )); then
  echo "drivers/ and lib/: no include or build edge into src/"
fi
exit $failed
