#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One weftcc CPU-image test: builds tests/weftcc_cpu/NAME.hip with weftcc for x86_64 and
runs it (its exit status is the verdict).

    run.py BUILD_DIR SOURCE

Lines `// expect-output: TEXT` in the source must appear in the program's output;
`// expect-build-error: TEXT` lines mean the build must fail and its diagnostics contain
each TEXT (the program is not run).
"""
import os
import pathlib
import subprocess
import sys
import tempfile

BUILD = pathlib.Path(sys.argv[1]).resolve()
SOURCE = pathlib.Path(sys.argv[2]).resolve()
WEFTCC = pathlib.Path(os.environ.get("WEFTCC_TEST_WEFTCC", BUILD / "tools" / "weftcc" / "weftcc"))
# Until weftcc passes it to the host pass itself (it is harmless twice).
PRELUDE = ["-include", "hip/weft/device/prelude.h"]


def expectations(kind):
    tag = f"// expect-{kind}: "
    return [line[len(tag):].strip() for line in SOURCE.read_text().splitlines() if line.startswith(tag)]


def main():
    if not WEFTCC.exists():
        print(f"SKIPPED: {WEFTCC} not built")
        return 77
    build_errors, outputs = expectations("build-error"), expectations("output")
    with tempfile.TemporaryDirectory(prefix="weftcc-cpu-") as tmp:
        exe = pathlib.Path(tmp) / SOURCE.stem
        proc = subprocess.run([str(WEFTCC), "--offload-arch=x86_64", "-O2", *PRELUDE, str(SOURCE), "-o", str(exe)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        if build_errors:
            print(proc.stdout)
            missing = [e for e in build_errors if e not in proc.stdout]
            if proc.returncode == 0 or missing:
                print(f"FAILED: the build should fail with {build_errors}; exit {proc.returncode}, missing {missing}")
                return 1
            print("the build failed as it should")
            return 0
        if proc.returncode != 0:
            print(proc.stdout)
            print(f"FAILED: weftcc exited {proc.returncode}")
            return 1
        run = subprocess.run([str(exe)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             errors="replace", timeout=600)
        print(run.stdout)
        missing = [o for o in outputs if o not in run.stdout]
        if missing:
            print(f"FAILED: missing output lines {missing}")
            return 1
        return run.returncode


if __name__ == "__main__":
    sys.exit(main())
