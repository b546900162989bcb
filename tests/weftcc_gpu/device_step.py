#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs one weftcc device step (weftcc_lib's nvidia_image / amd_image) outside weftcc,
for tests that need a GPU image of a test source at build time.

    device_step.py TARGET SOURCE OUT [--keep-ptx PTX_OUT] [compiler flags...]

Writes the image to OUT. When the target's toolchain is missing (libdevice, ROCm's
device libraries, or weftcc_lib itself) OUT is left empty and the reason printed:
the tests that read it then skip. When the compile itself fails, OUT holds
"weftcc-error" and the diagnostics, so those tests fail, naming them, instead of
breaking everyone's build.
"""
import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "tools" / "weftcc"))
ERROR_MARK = "weftcc-error\n"


def main() -> int:
    target, source, out = sys.argv[1], pathlib.Path(sys.argv[2]).resolve(), pathlib.Path(sys.argv[3])
    flags = sys.argv[4:]
    keep_ptx = None
    if flags[:1] == ["--keep-ptx"]:
        keep_ptx, flags = pathlib.Path(flags[1]), flags[2:]
        keep_ptx.write_bytes(b"")
    out.write_bytes(b"")
    # weftcc's PCH cache (gpu_pch.py) in the build tree, not the user's home.
    os.environ.setdefault("WEFTCC_CACHE", str(out.resolve().parent / "weftcc-cache"))
    try:
        from weftcc_lib.targets import Job, TargetError, module_for
    except ImportError as e:
        print(f"device_step: weftcc_lib is not available ({e}); {out.name} left empty")
        return 0
    module = module_for(target)
    if module.__name__.endswith("nvidia_image") and module.find_libdevice() is None:
        print(f"device_step: no NVIDIA libdevice (CUDA toolkit); {out.name} left empty")
        return 0
    if module.__name__.endswith("amd_image") and module.device_lib_dir() is None:
        print(f"device_step: no ROCm device libraries (rocm-device-libs); {out.name} left empty")
        return 0
    defines = [f[2:] for f in flags if f.startswith("-D")]
    opt = next((f for f in flags if f.startswith("-O")), "-O2")
    extra = [f for f in flags if not f.startswith(("-D", "-O"))]
    with tempfile.TemporaryDirectory() as work:
        job = Job(source=source, target=target, lang_std="c++17", defines=defines, undefines=[], include_dirs=[],
                  opt=opt, debug=False, extra_flags=extra, workdir=pathlib.Path(work), clang="clang-15",
                  weft_include=ROOT / "include", weft_libdir=ROOT, verbose=False)
        try:
            image = module.build(job)
        except TargetError as e:
            out.write_text(ERROR_MARK + str(e) + "\n" + e.diagnostics)
            print(f"device_step: {e}\n{e.diagnostics}")
            return 0
        out.write_bytes(image.read_bytes())
        if keep_ptx:  # the NVIDIA step's PTX, next to its image
            for ptx in pathlib.Path(work).glob("*.ptx"):
                keep_ptx.write_bytes(ptx.read_bytes())
    return 0


if __name__ == "__main__":
    sys.exit(main())
