#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A ThreadSanitizer pass over the whole test suite, in its own build directory.
# Not part of tools/test.sh or CI: a third full build does not fit the CI time
# budget on 2 cores. The CPU engine tells TSan about every fiber switch
# (drivers/cpu/block_runner.cpp), and sanitized kernels switch through the engine.
#
#   ./tools/tsan.sh [meson test arguments...]    e.g. ./tools/tsan.sh --suite conformance
set -uo pipefail
cd "$(dirname "$0")/.."
dir=build-tsan
if [ ! -f "$dir/build.ninja" ]; then
  meson setup "$dir" -Db_sanitize=thread -Db_lundef=false -Dbench=false -Dextended_tests=false \
    --buildtype=debugoptimized >/dev/null || exit 1
fi
ninja -C "$dir" -j "${JOBS:-$(nproc)}" || exit 1
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
meson test -C "$dir" --print-errorlogs --num-processes "${JOBS:-$(nproc)}" "$@"
status=$?
python3 tools/count_tests.py "$dir/meson-logs/testlog.json"
exit $status
