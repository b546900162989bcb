#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Counts Meson test results (testlog.json files) and prints 'N passed, M failed, K skipped'.

Exit status 1 when a test failed or when no test ran at all."""
import json
import sys

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        with open(path) as log:
            for line in log:
                line = line.strip()
                if not line:
                    continue
                result = json.loads(line).get("result", "")
                if result in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                elif result == "SKIP":
                    skipped += 1
                else:
                    failed += 1
    except FileNotFoundError:
        print(f"missing test log {path} (build failed?)", file=sys.stderr)
        failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
