#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Fails unless a library's versioned dynamic exports equal the expected `name@@node` list.
"""Usage: check_exports.py NM LIBRARY EXPECTED

Runs `NM -D --with-symbol-versions --defined-only LIBRARY` and compares its
defined symbols (as name@@node) with EXPECTED, one entry per line. Version
definition entries (type A) are skipped. Prints every difference in either
direction and exits 1 if there is any.
"""

import subprocess
import sys


def exported(nm, library):
    result = subprocess.run([nm, "-D", "--with-symbol-versions", "--defined-only", library],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"{nm} failed on {library}:\n{result.stderr}")
    symbols = set()
    for line in result.stdout.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        kind, symbol = fields[-2], fields[-1]
        if kind == "A":  # the version definitions themselves (hip_4.2, ...)
            continue
        symbols.add(symbol)  # unversioned or `@` (non-default) entries stay as-is and mismatch
    return symbols


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    nm, library, expected_path = sys.argv[1:]
    with open(expected_path, encoding="utf-8") as f:
        expected = {line.strip() for line in f if line.strip()}
    actual = exported(nm, library)
    missing = sorted(expected - actual)
    extra = sorted(actual - expected)
    for symbol in missing:
        print(f"missing:    {symbol}")
    for symbol in extra:
        print(f"unexpected: {symbol}")
    print(f"{len(actual)} exported, {len(expected)} expected, "
          f"{len(missing)} missing, {len(extra)} unexpected")
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
