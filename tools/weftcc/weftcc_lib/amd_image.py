# SPDX-License-Identifier: MIT
"""The AMD device step: one HIP source -> one AMDGPU code object (gfxNNN[:features]).

The same code object Debian's hipcc 5.2 makes: clang-15's HIP driver in device-only
mode (`--cuda-device-only --no-gpu-bundle-output`), code object v4 (hipcc's default
on clang-15: oclc_abi_version_400.bc), ROCm's device libraries linked as builtin
bitcode (hip, ocml, ockl and the oclc_* control libraries the driver picks), lld as
the linker. The difference: `-nogpuinc` drops clang's __clang_hip_runtime_wrapper.h
and AMD's headers, and weft's headers come first, so the kernels' mangled names are
those of every other pass (include/hip/weft/device/amdgcn.h is the device layer).

The driver found from the real path of job.clang (/usr/lib/llvm-15/bin/clang) runs
LLVM 15's lld, which also links code object v5 (`-mcode-object-version=5` among the
flags); Debian's /usr/bin/lld 14, which /usr/bin/clang-15 would pick, cannot.
"""
from __future__ import annotations

import os
import pathlib
import shlex
import shutil
import subprocess

from . import gpu_pch
from .targets import PRELUDE_INCLUDE, Job, TargetError

# Where Debian's rocm-device-libs puts the bitcode, then ROCm's own layouts.
DEVICE_LIB_DIRS = (
    "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
    "/usr/lib/amdgcn/bitcode",
    "/opt/rocm/amdgcn/bitcode",
)

# hipcc 5.2's device code-generation flags (hipcc -v shows them): everything inlined
# into the kernels, which is what ROCm's libraries and hipcc-built programs assume.
HIPCC_CODEGEN_FLAGS = ("-mllvm", "-amdgpu-early-inline-all=true",
                       "-mllvm", "-amdgpu-function-calls=false")
# C math calls (sinf, and libstdc++'s std:: overloads, written as __builtin_sinf)
# stay calls of the C functions, which weft's amdgcn.h defines on OCML: without
# it clang turns them into LLVM intrinsics, which the AMDGPU back end cannot lower
# for most functions ("unsupported libcall legalization"). No errno is written.
MATH_FLAGS = ("-fmath-errno",)


def device_lib_dir() -> pathlib.Path | None:
    """The ROCm device-library folder: $WEFTCC_ROCM_DEVICE_LIBS, else the first of
    DEVICE_LIB_DIRS holding ocml.bc."""
    override = os.environ.get("WEFTCC_ROCM_DEVICE_LIBS")
    for d in ([override] if override else list(DEVICE_LIB_DIRS)):
        if (pathlib.Path(d) / "ocml.bc").is_file():
            return pathlib.Path(d)
    return None


def processor(target: str) -> str:
    return target.split(":", 1)[0]


def compiler(job: Job) -> str:
    # The real path, so the driver looks for lld in LLVM 15's own bin folder.
    return os.path.realpath(shutil.which(job.clang) or job.clang)


def device_compile_command(job: Job, libs: pathlib.Path, out: pathlib.Path) -> list:
    cmd = [compiler(job), "-x", "hip", "--cuda-device-only", "--no-gpu-bundle-output",
           f"--offload-arch={job.target}", "-nogpuinc", f"--hip-device-lib-path={libs}",
           "-isystem", str(job.weft_include), *PRELUDE_INCLUDE]
    cmd += job.common_flags()
    cmd += HIPCC_CODEGEN_FLAGS
    cmd += MATH_FLAGS
    cmd += job.extra_flags
    cmd += ["-c", str(job.source), "-o", str(out)]
    return cmd


def driver_steps(job: Job, cmd: list, obj: pathlib.Path):
    """The driver's own two steps for `cmd` (-###): its cc1 compile, with the object
    written to `obj`, and its lld link; None when the driver says something else."""
    proc = subprocess.run([str(c) for c in cmd] + ["-###"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace")
    lines = [shlex.split(l) for l in proc.stdout.splitlines() if l.startswith(' "')]
    if proc.returncode != 0 or len(lines) != 2 or lines[0][1:2] != ["-cc1"] or "-o" not in lines[0]:
        return None
    compile_step, link_step = lines
    temp_obj = compile_step[compile_step.index("-o") + 1]
    if temp_obj not in link_step:
        return None
    compile_step[compile_step.index("-o") + 1] = str(obj)
    link_step[link_step.index(temp_obj)] = str(obj)
    return compile_step, link_step


def build(job: Job) -> pathlib.Path:
    libs = device_lib_dir()
    if libs is None:
        raise TargetError(job.target, "the ROCm device libraries (ocml.bc, ockl.bc) are not installed: "
                          "install Debian's rocm-device-libs, or point WEFTCC_ROCM_DEVICE_LIBS at "
                          "their folder (searched: " + ", ".join(DEVICE_LIB_DIRS) + ")")
    isa = libs / f"oclc_isa_version_{processor(job.target)[3:]}.bc"
    if not isa.is_file():
        raise TargetError(job.target, f"the ROCm device libraries in {libs} have no {isa.name}: "
                          f"{processor(job.target)} is not supported by this rocm-device-libs")
    out = job.workdir / f"{job.source.stem}-{processor(job.target)}.co"
    cmd = device_compile_command(job, libs, out)
    # The driver's compile and link run as two commands, so the compile can read
    # weft's headers precompiled (gpu_pch.py); the driver itself when it cannot be split.
    steps = driver_steps(job, cmd, job.workdir / f"{job.source.stem}-{processor(job.target)}.o") \
        if gpu_pch.enabled() else None
    if steps is None:
        job.run(cmd, "AMD device compile")
    else:
        compile_step, link_step = steps
        gpu_pch.run_compile(job, compile_step, gpu_pch.pch_for(job, compile_step, str(job.source)),
                            "AMD device compile")
        job.run(link_step, "AMD device link")
    if not out.is_file():
        raise TargetError(job.target, f"the device compile wrote no code object ({out})")
    return out
