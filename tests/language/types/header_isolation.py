#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every header a HIP program may include is weft's own.

1. Each top-level header name of AMD's HIP (5.2's /usr/include/hip plus later additions) exists
   in weft's include/hip; where AMD's headers are installed, their top-level list is checked too.
2. One C++ translation unit including all of them, compiled against weft's include/ with the
   compiler's dependency output (-M), opens no file under an AMD HIP include folder: a header
   weft lacks would otherwise be picked up silently from /usr/include/hip.

Usage: header_isolation.py <weft include dir> <c++ compiler and its arguments...>
"""
import os
import subprocess
import sys
import tempfile

# AMD's top-level headers. Some are written by other parts of the tree (fp16/bf16/fp8 types,
# device math, cooperative groups); the test expects them all.
HEADERS = [
    "channel_descriptor.h",
    "device_functions.h",
    "driver_types.h",
    "hip_bf16.h",
    "hip_bfloat16.h",
    "hip_common.h",
    "hip_complex.h",
    "hip_cooperative_groups.h",
    "hip_deprecated.h",
    "hip_ext.h",
    "hip_fp16.h",
    "hip_fp8.h",
    "hip_hcc.h",
    "hip_math_constants.h",
    "hip_profile.h",
    "hip_runtime.h",
    "hip_runtime_api.h",
    "hip_texture_types.h",
    "hip_vector_types.h",
    "hip_version.h",
    "hiprtc.h",
    "library_types.h",
    "math_functions.h",
    "surface_types.h",
    "texture_types.h",
]
AMD_INCLUDE_DIRS = ["/usr/include/hip", "/opt/rocm/include/hip"]


def main() -> int:
    include_dir = os.path.abspath(sys.argv[1])
    compiler = sys.argv[2:]
    weft_hip = os.path.join(include_dir, "hip")
    failures = []

    expected = set(HEADERS)
    for amd in AMD_INCLUDE_DIRS:
        if os.path.isdir(amd):
            expected |= {n for n in os.listdir(amd) if n.endswith(".h") and os.path.isfile(os.path.join(amd, n))}
    missing = sorted(n for n in expected if not os.path.isfile(os.path.join(weft_hip, n)))
    for name in missing:
        failures.append(f"weft has no include/hip/{name} (AMD's HIP has one)")

    with tempfile.TemporaryDirectory() as tmp:
        tu = os.path.join(tmp, "all_headers.cpp")
        with open(tu, "w") as f:
            # hip_runtime.h first, as programs usually do; then every header, present or not (a
            # missing one is exactly what must not resolve to AMD's).
            f.write("#include <hip/hip_runtime.h>\n")
            for name in sorted(expected):
                f.write(f"#include <hip/{name}>\n")
            f.write("int main() { return 0; }\n")
        # -MG: a header found nowhere is listed instead of stopping the scan.
        cmd = compiler + ["-std=c++17", "-I", include_dir, "-M", "-MG", tu]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            failures.append("the translation unit including every header does not preprocess:\n"
                            + run.stderr[-4000:])
        deps = run.stdout.replace("\\\n", " ").split()
        for dep in deps:
            path = os.path.realpath(dep.rstrip(":"))
            for amd in AMD_INCLUDE_DIRS:
                if path.startswith(os.path.realpath(amd) + os.sep):
                    failures.append(f"opens AMD's header {path}")
        # And it compiles, not only preprocesses.
        if run.returncode == 0:
            build = subprocess.run(compiler + ["-std=c++17", "-I", include_dir, "-fsyntax-only", tu],
                                   capture_output=True, text=True)
            if build.returncode != 0:
                failures.append("the translation unit including every header does not compile:\n"
                                + build.stderr[-4000:])

    if failures:
        for f in failures:
            print("FAIL:", f)
        return 1
    print(f"{len(expected)} headers, all weft's own")
    return 0


if __name__ == "__main__":
    sys.exit(main())
