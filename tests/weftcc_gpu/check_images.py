#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""weftcc's NVIDIA and AMD device steps on primitives.hip (a kernel per primitive).

    check_images.py nvidia   PTX for sm_90 (clang-15 writes sm_86 PTX) with every
                             kernel under its name; ptxas -arch=sm_90 assembles it;
                             the image is a fatbin holding the sm_90 cubin and the PTX
    check_images.py amd      gfx90a:xnack- and gfx1030 code objects: AMDGPU ELF, code
                             object v4 as Debian's hipcc makes (v5 on request), the
                             processor and xnack mode in e_flags, a .kd per kernel
    check_images.py errors   a compile error and a missing library are TargetErrors
                             naming the target
    check_images.py pch      weft's headers precompiled (gpu_pch.py; none for C++20): the same code
                             object (AMD) and kernels (NVIDIA) as without, built once
                             and reused; only for sources that include hip_runtime.h first

Exit 77 (skip) with the reason printed when a toolchain part is missing.
"""
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "tools" / "weftcc"))
SOURCE = HERE / "primitives.hip"
LANGUAGE = HERE / "language.hip"  # the HIP language through weft's HIP-mode headers
VECTOR_FIRST = HERE / "vector_first.hip"  # a first include other than hip_runtime.h
LANGUAGE_KERNELS = ["_Z9block_sumIfEvPKT_PS0_i", "std_math", "votes", "counters", "clocks"]
KERNELS = ["ids", "shuffles", "half_warp", "atomics", "math", "barriers", "clocks", "dynamic_shared", "grid_sync",
           "report", "_Z5scaleIfEvPT_S0_i"]
failures = []


def skip(reason):
    print(f"SKIPPED: {reason}")
    sys.exit(77)


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


try:
    from weftcc_lib.targets import Job, TargetError, module_for
except ImportError as e:
    skip(f"weftcc_lib (tools/weftcc/weftcc_lib/targets.py) is not available: {e}")


def job(target, work, source=SOURCE, extra=(), std="c++17"):
    return Job(source=source, target=target, lang_std=std, defines=[], undefines=[], include_dirs=[],
               opt="-O2", debug=False, extra_flags=list(extra), workdir=pathlib.Path(work), clang="clang-15",
               weft_include=ROOT / "include", weft_libdir=ROOT, verbose=False)


def build(target, work, **kw):
    try:
        return module_for(target).build(job(target, work, **kw))
    except TargetError as e:
        print(e, e.diagnostics, sep="\n")
        failures.append(f"{target}: {e}")
        return None


def fatbin_kinds(data):
    """Entry kinds of an NVIDIA fatbin (1 PTX, 2 ELF)."""
    header, payload = struct.unpack_from("<HQ", data, 6)[0], struct.unpack_from("<Q", data, 8)[0]
    kinds, at = [], header
    while at < header + payload:
        kind, _, entry_header, size = struct.unpack_from("<HHIQ", data, at)
        kinds.append(kind)
        at += entry_header + size
    return kinds


def nvidia():
    from weftcc_lib import nvidia_image
    if nvidia_image.find_libdevice() is None:
        skip("no CUDA toolkit libdevice: the NVIDIA target is unavailable")
    with tempfile.TemporaryDirectory() as work:
        image = build("sm_90", work)
        if image is None:
            return
        ptx_files = list(pathlib.Path(work).glob("*.ptx"))
        check(len(ptx_files) == 1, "the NVIDIA step wrote its PTX")
        ptx = ptx_files[0].read_text()
        check(".target sm_86" in ptx, "sm_90 gets PTX for sm_86 (the newest processor clang-15 knows)")
        for k in KERNELS:
            check(f".visible .entry {k}(" in ptx, f"PTX entry {k}")
        check("vprintf" in ptx and "__assertfail" in ptx, "printf and assert call the driver's vprintf/__assertfail")
        check("__nv_" not in ptx, "libdevice is linked in (no __nv_ call left)")
        check(".extern .shared .align 16 .b8 __weft_dynamic_shared_base[];" in ptx,
              "the dynamic shared base is the dynamic window (extern), not a shared variable of its own")
        ptxas = nvidia_image.find_cuda_tool("ptxas")
        if ptxas is None:
            skip("CUDA's ptxas is absent: the PTX cannot be assembled here")
        cubin = pathlib.Path(work) / "check.cubin"
        r = subprocess.run([ptxas, "-arch=sm_90", str(ptx_files[0]), "-o", str(cubin)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        check(r.returncode == 0 and cubin.read_bytes()[:4] == b"\x7fELF", "ptxas -arch=sm_90 assembles the PTX")
        if r.returncode:
            print(r.stdout)
        data = image.read_bytes()
        if nvidia_image.find_cuda_tool("fatbinary"):
            check(data[:4] == struct.pack("<I", 0xBA55ED50), "the image is an NVIDIA fatbin")
            check(sorted(fatbin_kinds(data)) == [1, 2], "the fatbin holds one PTX and one cubin")
            check(b".visible .entry ids(" in data, "the fatbin's PTX is not compressed (old drivers read it)")
        else:
            check(data[:4] == b"\x7fELF", "without fatbinary the image is the cubin")
    with tempfile.TemporaryDirectory() as work:
        if build("sm_90", work, source=LANGUAGE) is not None:
            ptx = next(pathlib.Path(work).glob("*.ptx")).read_text()
            for k in LANGUAGE_KERNELS:
                check(f".visible .entry {k}(" in ptx, f"language.hip: PTX entry {k}")
            check("__nv_" not in ptx and ".extern .func" not in ptx.replace(".extern .func  (.param .b32 func_retval0) vprintf", ""),
                  "language.hip: no unresolved call left in the PTX")
    with tempfile.TemporaryDirectory() as work:
        if build("sm_90", work, source=VECTOR_FIRST) is not None:
            ptx = next(pathlib.Path(work).glob("*.ptx")).read_text()
            check(".visible .entry swap_halves(" in ptx, "vector_first.hip: PTX entry swap_halves")
    with tempfile.TemporaryDirectory() as work:
        if build("sm_80", work) is not None:
            ptx = next(pathlib.Path(work).glob("*.ptx")).read_text()
            check(".target sm_80" in ptx, "sm_80 gets PTX for sm_80")


def readelf_symbols(path):
    readelf = shutil.which("llvm-readelf-15") or shutil.which("llvm-readelf")
    out = subprocess.run([readelf, "-s", "--wide", str(path)], stdout=subprocess.PIPE, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if len(line.split()) >= 8}


def amd():
    from weftcc_lib import amd_image
    if amd_image.device_lib_dir() is None:
        skip("ROCm's device libraries (rocm-device-libs) are not installed")
    cases = [("gfx90a:xnack-", [], 2, 0x3f), ("gfx1030", [], 2, 0x36),
             ("gfx90a", ["-mcode-object-version=5"], 3, 0x3f)]
    for target, extra, abi, mach in cases:
        with tempfile.TemporaryDirectory() as work:
            image = build(target, work, extra=extra)
            if image is None:
                continue
            data = image.read_bytes()
            check(data[:4] == b"\x7fELF" and struct.unpack_from("<H", data, 18)[0] == 224, f"{target}: AMDGPU ELF")
            check(data[7] == 64 and data[8] == abi, f"{target} {extra}: HSA OS ABI, code object v{abi + 2}")
            flags = struct.unpack_from("<I", data, 48)[0]
            check(flags & 0xff == mach, f"{target}: e_flags processor {mach:#x}")
            if "xnack-" in target:
                check((flags >> 8) & 3 == 2, f"{target}: xnack off in e_flags")
            symbols = readelf_symbols(image)
            for k in KERNELS:
                check(f"{k}.kd" in symbols, f"{target}: kernel descriptor {k}.kd")
            check("__ockl_hostcall_internal" in symbols or any("printf" in s for s in symbols),
                  f"{target}: printf went to OCKL's hostcall printf")
    with tempfile.TemporaryDirectory() as work:
        image = build("gfx90a", work, source=LANGUAGE)
        if image is not None:
            symbols = readelf_symbols(image)
            for k in LANGUAGE_KERNELS:
                check(f"{k}.kd" in symbols, f"language.hip for gfx90a: kernel descriptor {k}.kd")
    with tempfile.TemporaryDirectory() as work:
        image = build("gfx90a", work, source=VECTOR_FIRST)
        if image is not None:
            check("swap_halves.kd" in readelf_symbols(image), "vector_first.hip for gfx90a: kernel descriptor swap_halves.kd")


def errors():
    with tempfile.TemporaryDirectory() as work:
        bad = pathlib.Path(work) / "bad.hip"
        bad.write_text("#include <hip/weft/device/nvptx.h>\n__attribute__((global)) void k() { undeclared(); }\n")
        from weftcc_lib import nvidia_image
        if nvidia_image.find_libdevice() is not None:
            try:
                module_for("sm_90").build(job("sm_90", work, source=bad))
                check(False, "a compile error raises TargetError")
            except TargetError as e:
                check(e.target == "sm_90" and "undeclared" in e.diagnostics, "compile error: TargetError for sm_90")
        os.environ["WEFTCC_LIBDEVICE"] = "/nonexistent/libdevice.10.bc"
        try:
            module_for("sm_90").build(job("sm_90", work))
            check(False, "a missing libdevice raises TargetError")
        except TargetError as e:
            check(e.target == "sm_90" and "libdevice" in e.message, "missing libdevice: TargetError naming it")
        del os.environ["WEFTCC_LIBDEVICE"]
        os.environ["WEFTCC_ROCM_DEVICE_LIBS"] = "/nonexistent"
        from weftcc_lib import amd_image
        saved = amd_image.DEVICE_LIB_DIRS
        amd_image.DEVICE_LIB_DIRS = ()
        try:
            module_for("gfx90a").build(job("gfx90a", work))
            check(False, "missing device libraries raise TargetError")
        except TargetError as e:
            check(e.target == "gfx90a" and "rocm-device-libs" in e.message, "missing ROCm libs: TargetError naming them")
        amd_image.DEVICE_LIB_DIRS = saved
        del os.environ["WEFTCC_ROCM_DEVICE_LIBS"]
        if amd_image.device_lib_dir() is not None:
            try:
                module_for("gfx1100").build(job("gfx1100", work))
                check(False, "a processor without device libraries raises TargetError")
            except TargetError as e:
                check(e.target == "gfx1100" and "oclc_isa_version_1100" in e.message,
                      "gfx1100 without its ISA library: TargetError naming the file")


def entries(ptx):
    """Each kernel's PTX, keyed by name (the module's unreferenced globals left out)."""
    parts = ptx.split(".visible .entry ")[1:]
    return {p.split("(", 1)[0]: p for p in parts}


def pch():
    from weftcc_lib import gpu_pch, nvidia_image, amd_image
    with tempfile.TemporaryDirectory() as work:
        w = pathlib.Path(work)
        first = w / "first.hip"
        first.write_text("// comment\n/* block */\n#include <hip/hip_runtime.h>\n")
        later = w / "later.hip"
        later.write_text("#define BEFORE 1\n#include <hip/hip_runtime.h>\n")
        check(gpu_pch.starts_with_runtime_include(first), "hip_runtime.h first (after comments): PCH used")
        check(not gpu_pch.starts_with_runtime_include(later), "a directive before hip_runtime.h: no PCH")
        cases = []
        if amd_image.device_lib_dir() is not None:
            cases.append("gfx90a")
        if nvidia_image.find_libdevice() is not None:
            cases.append("sm_90")
        if not cases:
            skip("neither GPU toolchain is here")
        for target in cases:
            cache = w / f"cache-{target}"
            os.environ["WEFTCC_CACHE"] = str(cache)
            outputs = []
            for run, pch_on in enumerate(["1", "1", "0"]):
                os.environ["WEFTCC_PCH"] = pch_on
                d = w / f"{target}-{run}"
                d.mkdir()
                image = build(target, d, source=LANGUAGE)
                if image is None:
                    return
                ptx = list(d.glob("*.ptx"))
                outputs.append(entries(ptx[0].read_text()) if ptx else image.read_bytes())
            check(len(list(cache.glob("*.pch"))) == 1, f"{target}: one PCH built, then reused")
            check(outputs[0] == outputs[1] == outputs[2], f"{target}: the same kernels with and without the PCH")
            # A PCH clang rejects (here: garbage) is dropped and the pass compiles without it.
            for stale in cache.glob("*.pch"):
                stale.write_bytes(b"not a PCH")
            os.environ["WEFTCC_PCH"] = "1"
            d = w / f"{target}-stale"
            d.mkdir()
            image = build(target, d, source=LANGUAGE)
            if image is None:
                return
            ptx = list(d.glob("*.ptx"))
            check((entries(ptx[0].read_text()) if ptx else image.read_bytes()) == outputs[2],
                  f"{target}: a rejected PCH falls back to a plain compile")
            check(all(p.read_bytes() != b"not a PCH" for p in cache.glob("*.pch")),
                  f"{target}: the rejected PCH was removed")
            # C++20 and <string> after hip_runtime.h: no PCH (clang-15 cannot read one of
            # the prelude in C++20 mode, gpu_pch.cxx20_or_later); the compile works.
            cxx20 = w / "cxx20.hip"
            cxx20.write_text("#include <hip/hip_runtime.h>\n#include <string>\n"
                             "__global__ void k(int* p) { p[0] = 20; }\nstd::string host_name() { return \"k\"; }\n")
            before = sorted(cache.glob("*.pch"))
            d = w / f"{target}-cxx20"
            d.mkdir()
            try:
                module_for(target).build(job(target, d, source=cxx20, std="c++20"))
                check(True, f"{target}: -std=c++20 with <string> compiles")
            except TargetError as e:
                print(e, e.diagnostics, sep="\n")
                check(False, f"{target}: -std=c++20 with <string> compiles")
            check(sorted(cache.glob("*.pch")) == before, f"{target}: no PCH for -std=c++20")
            # A cache weftcc cannot write (a folder nobody can create files in, even
            # root): the compile goes without a PCH.
            os.environ["WEFTCC_CACHE"] = "/proc/self"
            d = w / f"{target}-read-only"
            d.mkdir()
            check(build(target, d, source=LANGUAGE) is not None, f"{target}: a read-only cache: compiled without")
        os.environ.pop("WEFTCC_PCH")


{"nvidia": nvidia, "amd": amd, "errors": errors, "pch": pch}[sys.argv[1]]()
if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("all checks passed")
