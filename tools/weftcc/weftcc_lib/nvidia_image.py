# SPDX-License-Identifier: MIT
"""The NVIDIA device step: one HIP source -> one image for an sm_XY agent.

1. clang-15's HIP front end in device mode for nvptx64 (cc1: the HIP driver only
   drives AMDGPU targets) emits PTX. clang-15 knows NVPTX processors up to sm_86, so a
   later target gets PTX for the highest processor clang knows below it (sm_86 for
   sm_87/sm_89/sm_90): PTX is forward compatible, NVIDIA's driver JIT-compiles it.
   The math API comes from NVIDIA's libdevice (`__nv_*`), linked once as builtin
   bitcode: only the functions a kernel calls survive, and -O runs once over the whole.
2. With a CUDA toolkit's `ptxas`, the PTX also becomes a cubin for the exact target,
   and with its `fatbinary` both go into one NVIDIA fatbin (the PTX uncompressed,
   so that old drivers read it): the driver loads the cubin and falls back to
   JIT-compiling the PTX (a driver older than the toolkit rejects the cubin, not
   the PTX). Without ptxas the image is the PTX text; without
   fatbinary it is the cubin.

The cc1 command is the one clang's HIP driver would run for an AMDGPU device pass
(`-###`), retargeted: the same header search paths and language options as the AMD
and host passes, so every pass sees weft's headers the same way and gives the kernels
the same mangled names. The device layer is include/hip/weft/device/nvptx.h.
"""
from __future__ import annotations

import os
import pathlib
import re
import shlex
import shutil
import subprocess

from . import gpu_pch
from .targets import PRELUDE_INCLUDE, Job, TargetError

# NVPTX processors clang-15 can generate code for, and the PTX ISA it writes.
CLANG_SM = (50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86)
PTX_FEATURE = "+ptx75"


def cuda_roots() -> list:
    roots = [os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"), "/usr/local/cuda", "/opt/cuda"]
    return [pathlib.Path(r) for r in roots if r]


def find_libdevice() -> pathlib.Path | None:
    override = os.environ.get("WEFTCC_LIBDEVICE")
    if override:
        return pathlib.Path(override) if pathlib.Path(override).is_file() else None
    for root in cuda_roots():
        p = root / "nvvm" / "libdevice" / "libdevice.10.bc"
        if p.is_file():
            return p
    return None


def find_cuda_tool(name: str) -> str | None:
    """A CUDA toolkit program (ptxas, fatbinary): in a CUDA root's bin, else on PATH."""
    for root in cuda_roots():
        p = root / "bin" / name
        if p.is_file() and os.access(p, os.X_OK):
            return str(p)
    return shutil.which(name)


def sm_number(target: str) -> int:
    return int(target[3:].rstrip("a"))


def ptx_processor(target: str) -> str:
    """The processor clang-15 writes PTX for: the target itself, else the highest one
    it knows below the target."""
    n = sm_number(target)
    return f"sm_{max(s for s in CLANG_SM if s <= n)}"


# cc1 options of an AMDGPU device pass that mean nothing (or the wrong thing) for NVPTX.
_DROP_WITH_VALUE = {"-triple", "-target-cpu", "-mrelocation-model", "-pic-level", "-fvisibility", "-o",
                    "-main-file-name"}
# (-faddrsig writes a directive ptxas rejects; NVPTX has no aliases for -mconstructor-aliases.)
_DROP = {"-fhalf-no-semantic-interposition", "-fapply-global-visibility-to-externs", "-emit-obj", "-S",
         "-emit-llvm-bc", "-nogpulib", "-faddrsig", "-mconstructor-aliases"}
# C math calls (sinf, and libstdc++'s std:: overloads, written as __builtin_sinf)
# stay calls of the C functions, which weft's nvptx.h defines on libdevice: without
# it clang turns them into LLVM intrinsics the NVPTX back end cannot select. No
# errno is written.
_MATH_FLAGS = ["-fmath-errno"]
# What clang's CUDA driver adds for NVPTX: no memcpy libcall exists on the device, and
# ptxas wants file names in .file directives, not DWARF directory entries.
_NVPTX_ADD = ["-mllvm", "-enable-memcpyopt-without-libcalls", "-fno-dwarf-directory-asm"]


def driver_cc1(job: Job) -> list:
    """The cc1 arguments clang's HIP driver would use for a device pass of this job."""
    probe = [job.clang, "-x", "hip", "--cuda-device-only", "--offload-arch=gfx90a", "-nogpuinc", "-nogpulib",
             "-isystem", str(job.weft_include), *PRELUDE_INCLUDE] + job.common_flags() + job.extra_flags + \
            ["-S", str(job.source), "-o", "/dev/null", "-###"]
    if job.verbose:
        job.log(" ".join(shlex.quote(str(c)) for c in probe))
    proc = subprocess.run([str(c) for c in probe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace")
    lines = [l for l in proc.stdout.splitlines() if '"-cc1"' in l]
    if proc.returncode != 0 or not lines:
        raise TargetError(job.target, "the HIP driver refused the command line", proc.stdout)
    return shlex.split(lines[0])


def retarget(cc1: list, cpu: str, libdevice: pathlib.Path, out: pathlib.Path) -> list:
    """The AMDGPU cc1 line turned into an NVPTX one writing PTX to `out`."""
    kept = []
    i = 2  # after "clang -cc1"
    while i < len(cc1):
        a = cc1[i]
        if a in _DROP_WITH_VALUE or (a == "-mllvm" and cc1[i + 1:i + 2] and cc1[i + 1].startswith("-amdgpu")):
            i += 2
            continue
        if a not in _DROP:
            kept.append(a)
        i += 1
    return [cc1[0], "-cc1", "-triple", "nvptx64-nvidia-cuda", "-target-cpu", cpu,
            "-target-feature", PTX_FEATURE, "-S", "-mrelocation-model", "static",
            "-mlink-builtin-bitcode", str(libdevice)] + _NVPTX_ADD + _MATH_FLAGS + kept + ["-o", str(out)]


# A texture reference's declaration in clang's PTX, and its one use: the handle copied
# into a register (`mov.u64 %rd2, g_tex;`, which weft's nvptx_texture.h reads through
# inline assembly).
_TEXREF_DECL = re.compile(r"^(\s*(?:\.(?:visible|extern|weak)\s+)?)\.global\s+\.(texref|surfref|samplerref)\s+"
                          r"([A-Za-z_$%][\w$]*)\s*;", re.M)
_HANDLE_MOV = r"mov\.u64\s+(%rd\d+)\s*,\s*{name}\s*;"


def texture_references_as_objects(ptx: str) -> str:
    """Texture references (`texture<>` globals, `.texref` in clang's PTX) as 64-bit globals
    holding a texture object: CUDA 12 and later have no API to bind a `.texref`, so weft's
    runtime stores the host reference's texture object (a CUtexObject) in the global before a
    launch (docs/textures.md), and each handle move becomes a load of it. A surface or
    sampler reference, or a texture reference used any other way, is an error."""
    refs = _TEXREF_DECL.findall(ptx)
    for _, kind, name in refs:
        if kind != "texref":
            raise ValueError(f"a {kind} ({name}) is not supported: use surface or texture objects")
    for prefix, _, name in refs:
        word = re.escape(name)
        ptx = re.sub(rf"^{re.escape(prefix)}\.global\s+\.texref\s+{word}\s*;",
                     f"{prefix}.global .align 8 .u64 {name};", ptx, count=1, flags=re.M)
        ptx = re.sub(_HANDLE_MOV.format(name=word), rf"ld.global.u64 \1, [{name}];", ptx)
        other = [line.strip() for line in ptx.splitlines()
                 if re.search(rf"(?<![\w$]){word}(?![\w$])", line)
                 and not re.search(rf"(\.u64\s+{word}\s*;|\[{word}\])", line)
                 and not re.match(r"\s*(//|\.b(8|16|32|64)\s)", line)]  # comments, debug data
        if other:
            raise ValueError(f"texture reference {name} is used in a way weft cannot give a texture "
                             f"object to: {other[0]}")
    return ptx


def build(job: Job) -> pathlib.Path:
    libdevice = find_libdevice()
    if libdevice is None:
        raise TargetError(job.target, "NVIDIA's libdevice (nvvm/libdevice/libdevice.10.bc of a CUDA "
                          "toolkit) was not found under $CUDA_PATH, $CUDA_HOME, /usr/local/cuda or "
                          "/opt/cuda (or $WEFTCC_LIBDEVICE): the NVIDIA target is unavailable")
    stem = job.source.stem
    ptx = job.workdir / f"{stem}-{job.target}.ptx"
    cc1 = retarget(driver_cc1(job), ptx_processor(job.target), libdevice, ptx)
    gpu_pch.run_compile(job, cc1, gpu_pch.pch_for(job, cc1, str(job.source)), "NVIDIA device compile")
    text = ptx.read_text()
    if ".texref" in text or ".surfref" in text or ".samplerref" in text:
        try:
            ptx.write_text(texture_references_as_objects(text))
        except ValueError as e:
            raise TargetError(job.target, str(e)) from None

    ptxas = find_cuda_tool("ptxas")
    if ptxas is None:
        return ptx
    cubin = job.workdir / f"{stem}-{job.target}.cubin"
    job.run([ptxas, f"-arch={job.target}", str(ptx), "-o", str(cubin)], "ptxas")
    fatbinary = find_cuda_tool("fatbinary")
    if fatbinary is None:
        return cubin
    fatbin = job.workdir / f"{stem}-{job.target}.fatbin"
    ptx_sm = ptx_processor(job.target)[3:]
    # Uncompressed: CUDA 13's fatbinary zstd-compresses PTX by default, which only
    # drivers of its own generation read, and the PTX is the old drivers' fallback.
    job.run([fatbinary, "-64", "--compress=false", f"--create={fatbin}",
             f"--image3=kind=elf,sm={job.target[3:]},file={cubin}",
             f"--image3=kind=ptx,sm={ptx_sm},file={ptx}"], "fatbinary")
    return fatbin
