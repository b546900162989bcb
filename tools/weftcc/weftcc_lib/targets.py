# SPDX-License-Identifier: MIT
"""The device-step interface shared by weftcc and its target modules.

weftcc compiles one translation unit once per target (a *device step*), bundles the
images, then compiles the host side. A device step is one function in one module:

    build(job: Job) -> pathlib.Path      # the image file, written under job.workdir

Modules (weftcc_lib/<name>.py): cpu_image (x86_64: a weft CPU code object),
nvidia_image (sm_XY: PTX or cubin), amd_image (gfxNNN: an AMDGPU code object).
On failure a module raises TargetError(job.target, message); weftcc prints
`weftcc: error: [target <t>] <message>` followed by the compiler's diagnostics and
exits 1. `job.run(cmd)` runs one command the way weftcc wants (printed under -v,
diagnostics captured into the TargetError on failure).

A module that is not there yet is replaced by a placeholder whose build() raises
TargetError(target, "not built yet"): weftcc never writes an image it did not build.
"""
from __future__ import annotations

import dataclasses
import importlib
import pathlib
import re
import shlex
import subprocess
import sys
from typing import Callable, Optional

# Every pass starts with weft's prelude (the C and C++ libraries made host+device), as
# the host pass does (driver.py): a source whose first include is not hip_runtime.h
# (e.g. hip/hip_vector_types.h, then <string>) would otherwise declare libstdc++'s
# functions host-only after a weft header had declared them host+device.
PRELUDE_INCLUDE = ("-include", "hip/weft/device/prelude.h")


class TargetError(Exception):
    """A device step failed for one target; `diagnostics` is the compiler's output,
    `returncode` the failing command's exit status (None when no command failed)."""

    def __init__(self, target: str, message: str, diagnostics: str = "", returncode: Optional[int] = None):
        super().__init__(f"[target {target}] {message}")
        self.target = target
        self.message = message
        self.diagnostics = diagnostics
        self.returncode = returncode


@dataclasses.dataclass
class Job:
    """Everything a device step needs to compile one source for one target."""
    source: pathlib.Path          # the HIP source (absolute)
    target: str                   # "x86_64", "sm_80", "gfx90a:xnack-" (as given to --offload-arch)
    lang_std: str                 # "c++17" (from -std=, else weftcc's default)
    defines: list                 # ["NAME", "NAME=VALUE"] in command-line order (-D)
    undefines: list               # ["NAME"] (-U), applied after the defines, as the command line orders them
    include_dirs: list            # user include dirs (-I), absolute, in order (weft's own not included)
    opt: str                      # "-O0" .. "-O3", "-Os", "-Oz"
    debug: bool                   # -g given
    extra_flags: list             # other compile flags from the command line (-f..., -W..., -include ...), as given
    workdir: pathlib.Path         # an empty temporary directory owned by this job
    clang: str                    # path of clang-15 (the C driver; clang++ is next to it)
    weft_include: pathlib.Path    # weft's include dir (hip/hip_runtime.h lives under it)
    weft_libdir: pathlib.Path     # the folder holding weft's libamdhip64
    verbose: bool = False         # -v: print every command before running it
    rdc: bool = False             # -fgpu-rdc (weftcc refuses it today; modules may ignore it)
    image_optional: bool = False  # the host pass decides whether an image is needed (no_device_code)
    log: Callable[[str], None] = lambda text: print(text, file=sys.stderr)

    def common_flags(self) -> list:
        """-std, -O, -g, -D/-U and -I of the command line, in the order a compiler wants them."""
        flags = [f"-std={self.lang_std}", self.opt]
        if self.debug:
            flags.append("-g")
        flags += [f"-D{d}" for d in self.defines]
        flags += [f"-U{u}" for u in self.undefines]
        flags += [f"-I{i}" for i in self.include_dirs]
        return flags

    def run(self, cmd: list, what: str = "", cwd: Optional[pathlib.Path] = None) -> str:
        """Runs cmd; returns its combined output. A failure raises TargetError naming
        this job's target, with `what` (e.g. "device compile") and the output."""
        cmd = [str(c) for c in cmd]
        if self.verbose:
            self.log(" ".join(shlex.quote(c) for c in cmd))
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  cwd=cwd, text=True, errors="replace")
        except OSError as e:
            raise TargetError(self.target, f"cannot run {cmd[0]}: {e.strerror}") from None
        if proc.returncode != 0:
            step = what or pathlib.Path(cmd[0]).name
            raise TargetError(self.target, f"{step} failed (exit {proc.returncode})", proc.stdout, proc.returncode)
        if proc.stdout and self.verbose:
            self.log(proc.stdout.rstrip("\n"))
        return proc.stdout


# A translation unit without device code (no kernel, no device variable: most of a test
# suite's sources) needs no image when its host pass registers nothing. With
# job.image_optional a module may return no_device_code(job) instead of building an
# image it saw to be empty; weftcc then uses it only if the host object has no bundle
# (clang emits none for such a unit), and otherwise runs the step again without the
# option (image_optional is never set for --genco or without objcopy).
NO_DEVICE_CODE = "no-device-code"


def no_device_code(job: Job) -> pathlib.Path:
    path = pathlib.Path(job.workdir) / NO_DEVICE_CODE
    path.write_text(f"{job.source}: no device code for {job.target}\n")
    return path


def is_no_device_code(path) -> bool:
    return pathlib.Path(path).name == NO_DEVICE_CODE


# ---------------------------------------------------------------------------
# The targets weftcc knows, and the bundle entry ID of each (docs/code-objects.md).

CPU_TARGETS = ("x86_64",)
# NVIDIA: what the CUDA driver can run; the nvidia module decides how (clang-15 emits PTX
# up to sm_86, and the driver JIT-compiles PTX for later GPUs).
NVIDIA_TARGETS = ("sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
                  "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a")
# AMD: the processors clang-15's AMDGPU back end knows.
AMD_TARGETS = ("gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705",
               "gfx801", "gfx802", "gfx803", "gfx805", "gfx810",
               "gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a",
               "gfx90c", "gfx940",
               "gfx1010", "gfx1011", "gfx1012", "gfx1013",
               "gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036",
               "gfx1100", "gfx1101", "gfx1102", "gfx1103")
AMD_FEATURES = ("xnack", "sramecc")

_AMD_TARGET_ID = re.compile(r"^(gfx[0-9a-f]+)((?::[a-z]+[+-])*)$")


def target_kind(target: str) -> Optional[str]:
    """"cpu", "nvidia" or "amd" for a target weftcc knows, else None."""
    if target in CPU_TARGETS:
        return "cpu"
    if target in NVIDIA_TARGETS:
        return "nvidia"
    m = _AMD_TARGET_ID.match(target)
    if m and m.group(1) in AMD_TARGETS:
        features = [f[:-1] for f in m.group(2).split(":") if f]
        if all(f in AMD_FEATURES for f in features) and len(set(features)) == len(features):
            return "amd"
    return None


def known_targets_text() -> str:
    return ("x86_64 (the CPU agent); NVIDIA " + ", ".join(NVIDIA_TARGETS) +
            "; AMD " + ", ".join(AMD_TARGETS) +
            " (AMD targets may add :xnack+/- and :sramecc+/-, e.g. gfx90a:xnack-)")


def bundle_entry_id(target: str) -> str:
    kind = target_kind(target)
    if kind == "cpu":
        return f"hipv4-x86_64-unknown-linux-gnu-{target}"
    if kind == "nvidia":
        return f"hipv4-nvptx64-nvidia-cuda--{target}"
    if kind == "amd":
        return f"hipv4-amdgcn-amd-amdhsa--{target}"
    raise ValueError(f"unknown target {target}")


HOST_ENTRY_ID = "host-x86_64-unknown-linux-gnu"  # empty, as the host entry hipcc writes


# ---------------------------------------------------------------------------
# The registry: which module builds which kind of target.

MODULES = {"cpu": "cpu_image", "nvidia": "nvidia_image", "amd": "amd_image"}


class _NotBuiltYet:
    """Stands in for a target module that does not exist yet."""

    def __init__(self, module: str):
        self.module = module

    def build(self, job: Job) -> pathlib.Path:
        raise TargetError(job.target, f"not built yet (weftcc_lib/{self.module}.py is missing)")


def module_for(target: str):
    """The module whose build(job) compiles `target` (a placeholder if it is missing)."""
    kind = target_kind(target)
    if kind is None:
        raise ValueError(f"unknown target {target}")
    name = MODULES[kind]
    try:
        return importlib.import_module(f"weftcc_lib.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"weftcc_lib.{name}":
            raise  # the module exists but imports something missing: a real error
        return _NotBuiltYet(name)
