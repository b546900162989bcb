#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds weft's own test programs with weftcc for the x86_64 target and runs them.

    suite.py BUILD_DIR TARGET...

Each TARGET is an executable of the meson build (conformance_kernel, language_math,
vector_add, ...). Its sources, include dirs and defines come from `meson introspect`,
so the program is exactly the one meson builds with g++, only compiled by weftcc as HIP
(`-x hip`): the host pass registers the kernels, the x86_64 image built from the same
source runs them on the CPU agent. Test programs link the Catch2 support sources
(tests/support) compiled the same way. Every program must exit 0; the output of a
failing one is printed. Exit status: 0 when all passed, 1 otherwise.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

BUILD = pathlib.Path(sys.argv[1]).resolve()
NAMES = sys.argv[2:]
WEFTCC = pathlib.Path(os.environ.get("WEFTCC_TEST_WEFTCC", BUILD / "tools" / "weftcc" / "weftcc"))
# Until weftcc passes it to the host pass itself (it is harmless twice).
PRELUDE = ["-include", "hip/weft/device/prelude.h"]
SOURCE = pathlib.Path(__file__).resolve().parents[2]
SUPPORT = [SOURCE / "tests" / "support" / "test_main.cpp", SOURCE / "tests" / "support" / "hip_test.cpp"]


def introspect():
    out = subprocess.run(["meson", "introspect", "--targets", str(BUILD)], stdout=subprocess.PIPE,
                         check=True, text=True).stdout
    return {t["name"]: t for t in json.loads(out) if t["type"] == "executable"}


def compile_flags(parameters):
    """-I, -D, -U and -std of a meson compile command (warnings are the compiler's own)."""
    keep = []
    for p in parameters:
        if p.startswith(("-I", "-D", "-U", "-std=")):
            keep.append(p)
    return keep


def run(cmd, cwd, timeout=900):
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace", timeout=timeout)
    return proc.returncode, proc.stdout


def build_and_run(target, work):
    sources, flags = [], []
    for group in target["target_sources"]:
        if group.get("language") != "cpp":
            continue
        sources += [pathlib.Path(s) for s in group["sources"]]
        flags = compile_flags(group["parameters"])
    if any("tests/support" in f for f in flags):
        sources += SUPPORT
    objects = []
    for i, src in enumerate(sources):
        obj = work / f"{i}-{src.stem}.o"
        # The Catch2 main holds no kernels: plain C++ (clang 15 crashes on libstdc++'s
        # <regex> in HIP mode with -std=c++20).
        lang = ["-x", "c++"] if src in SUPPORT else ["-x", "hip", *PRELUDE]
        rc, out = run([WEFTCC, "--offload-arch=x86_64", *lang, "-O2", *flags, "-c", src, "-o", obj], work)
        if rc != 0:
            return False, f"weftcc failed on {src}:\n{out}"
        objects.append(obj)
    exe = work / target["name"]
    rc, out = run([WEFTCC, "--offload-arch=x86_64", *objects, "-o", exe, "-ldl", "-lpthread"], work)
    if rc != 0:
        return False, f"link failed:\n{out}"
    rc, out = run([exe], work)
    return rc == 0, out


def main():
    if not WEFTCC.exists():
        print(f"SKIPPED: {WEFTCC} not built")
        return 77
    targets = introspect()
    failed = []
    for name in NAMES:
        if name not in targets:
            print(f"{name}: not a target of this build")
            failed.append(name)
            continue
        with tempfile.TemporaryDirectory(prefix=f"weftcc-{name}-") as tmp:
            start = time.monotonic()
            ok, out = build_and_run(targets[name], pathlib.Path(tmp))
            took = time.monotonic() - start
        tail = "\n".join(out.rstrip().splitlines()[-3:])
        print(f"{name}: {'passed' if ok else 'FAILED'} ({took:.0f} s)\n{tail if ok else out}\n", flush=True)
        if not ok:
            failed.append(name)
    print(f"{len(NAMES) - len(failed)}/{len(NAMES)} programs built by weftcc passed"
          + (f"; failed: {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
