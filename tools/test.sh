#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# README command 2: the whole test suite, twice: a normal build with warnings as
# errors, then the same suite under AddressSanitizer + UndefinedBehaviorSanitizer.
# Ends with one line "N passed, M failed, K skipped" counted from Meson's logs.
set -uo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-$(nproc)}"

configure() {  # dir, extra meson options...
  local dir="$1"; shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" "$@" >/dev/null
  fi
}

status=0
run_suite() {  # dir, label, extra meson options...
  local dir="$1" label="$2"; shift 2
  echo "== $label build ($dir)"
  if ! configure "$dir" "$@" || ! ninja -C "$dir" -j "$JOBS"; then
    echo "BUILD FAILED: $label"
    status=1
    return
  fi
  echo "== $label tests"
  meson test -C "$dir" --print-errorlogs --num-processes "$JOBS" || status=1
}

run_suite build "default" -Dwerror=true
# ASan and UBSan in one build; leaks are checked too. Fibers are annotated for ASan
# in drivers/cpu/block_runner.cpp.
# Any UBSan report fails its test (ASan aborts on its own).
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
run_suite build-sanitize "sanitizer" -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false -Dbench=false -Dextended_tests=false \
  --buildtype=debug

python3 tools/count_tests.py build/meson-logs/testlog.json build-sanitize/meson-logs/testlog.json
counted=$?
[ $counted -ne 0 ] && status=1
exit $status
