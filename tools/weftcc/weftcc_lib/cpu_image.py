# SPDX-License-Identifier: MIT
"""The x86_64 device step: a weft CPU code object built from the HIP source itself.

clang compiles the source in HIP *device* mode with the host CPU as the device target
(`-fcuda-is-device`, triple and aux-triple x86_64-unknown-linux-gnu), against weft's
headers, whose x86-64 device layer (include/hip/weft/device/x86_64.h) turns the GPU
built-ins into the CPU engine's fast paths through the `__weft_cpu_*` markers. So the
kernels are exactly the functions, under exactly the mangled names, that the host pass
registers, and every device-side construct (templates, `__device__`/`__constant__`/
`__managed__` variables, `__shared__`) goes through clang's own HIP semantics.

Steps (docs/code-objects.md, "CPU images built by weftcc"):
1. discovery: the source in device mode to LLVM IR, without LLVM passes. Each `__global__` is
   annotated "weft.kernel" in this pass (include/hip/weft/device/qualifiers.h), so the
   IR's `llvm.global.annotations` lists every kernel clang emits, template instances
   included, by mangled name; `extern __shared__` arrays are its external thread-local
   arrays.
2. a wrapper translation unit: `#include` the source, then
   include/hip/weft/device/x86_64_image.h, then per kernel an `extern "C"` device
   function declared under the kernel's own symbol (its parameter types from the
   demangled name; an `extern "C"` kernel's from `decltype`), its argument table and its
   record (max_threads_per_block from the kernel's __launch_bounds__, else 1024).
3. that wrapper compiled in device mode (-O as given), linked into a shared object in
   which each `extern __shared__` symbol is the block's dynamic shared memory.
Passes 1 and 3 read weft's headers from one precompiled header (cpu_pch.py).
"""
from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess

from . import cpu_pch, targets
from .targets import Job, TargetError

DEVICE_TRIPLE = "x86_64-unknown-linux-gnu"
KERNEL_ANNOTATION = "weft.kernel"
DYNAMIC_SHARED_SYMBOL = "__weft_cpu_dynamic_shared_storage"

# The image's table (docs/code-objects.md), bounded by the linker's section symbols: plain
# C, because the device pass emits only __device__ variables with constant initializers.
TABLE_SOURCE = """\
#define WEFT_CPU_CODE_OBJECT_ABI_ONLY
#include <hip/weft/cpu_code_object.h>
extern const weftCpuKernelRecord __start_weft_cpu_kernels[] __attribute__((weak, visibility("hidden")));
extern const weftCpuKernelRecord __stop_weft_cpu_kernels[] __attribute__((weak, visibility("hidden")));
__attribute__((visibility("default"), used)) const weftCpuCodeObject weft_cpu_code_object = {
    WEFT_CPU_CODE_OBJECT_MAGIC, WEFT_CPU_CODE_OBJECT_VERSION, WEFT_KERNEL_ABI_VERSION,
    sizeof(weftCpuKernelRecord), __start_weft_cpu_kernels, __stop_weft_cpu_kernels};
"""


def _clangxx(job: Job) -> str:
    clang = pathlib.Path(job.clang)
    name = clang.name.replace("clang", "clang++", 1) if "clang++" not in clang.name else clang.name
    candidate = clang.with_name(name)
    return str(candidate) if candidate.exists() else str(clang)


def device_mode_flags(job: Job, prelude: bool = True) -> list:
    """The clang flags of weft's x86-64 device pass (without input, output or -c); with
    prelude=False without the prelude's -include (cpu_pch.py decides how it comes in)."""
    return [
        _clangxx(job), "-x", "hip", "--cuda-host-only", "-nogpuinc", "-nogpulib",
        # The host-only job becomes the device pass, for the host itself as device.
        "-Xclang", "-fcuda-is-device", "-Xclang", "-aux-triple", "-Xclang", DEVICE_TRIPLE,
        "-fPIC", "-isystem", str(job.weft_include),
        *(["-include", cpu_pch.PRELUDE] if prelude else []),
        *job.common_flags(), *job.extra_flags,
    ]


# ---------------------------------------------------------------------------
# 1. discovery

_STRING_GLOBAL = re.compile(r'^(@[\w.$"-]+) = .*constant \[\d+ x i8\] c"((?:[^"\\]|\\[0-9A-Fa-f]{2})*)"', re.M)
_ANNOTATION = re.compile(r'\{ ptr (@(?:"[^"]+"|[\w.$-]+)), ptr (@(?:"[^"]+"|[\w.$-]+)),')
# One whole llvm.global.annotations entry: function, annotation, file, line, arguments.
_ANNOTATION_WITH_ARGS = re.compile(r'\{ ptr (@(?:"[^"]+"|[\w.$-]+)), ptr (@(?:"[^"]+"|[\w.$-]+)), '
                                   r'ptr @(?:"[^"]+"|[\w.$-]+), i32 \d+, ptr (@(?:"[^"]+"|[\w.$-]+)|null) \}')
# An annotation's arguments: a constant struct, its first field an integer.
_ARGS_GLOBAL = re.compile(r'^(@[\w.$"-]+) = .*constant \{ [^}]* \} \{ i\d+ (-?\d+)', re.M)
LAUNCH_BOUNDS_ANNOTATION = "weft.launch_bounds"
DEFAULT_MAX_THREADS = 1024  # the CPU agent's maxThreadsPerBlock
# Any global or function the device pass defined (a module without device code has none).
_DEFINITION = re.compile(r"^(@|define )", re.M)
_EXTERNAL_TLS = re.compile(r'^@("[^"]+"|[\w.$-]+) = external (?:[\w_]+ )*thread_local (?:[\w_]+ )*global ', re.M)


def _symbol(ir_name: str) -> str:
    name = ir_name[1:] if ir_name.startswith("@") else ir_name
    if name.startswith('"') and name.endswith('"'):
        name = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), name[1:-1])
    return name


def discover(ir: str) -> tuple:
    """(kernel symbols in IR order, extern __shared__ symbols) of the device pass's IR."""
    strings = {}
    for m in _STRING_GLOBAL.finditer(ir):
        text = re.sub(r"\\([0-9A-Fa-f]{2})", lambda x: chr(int(x.group(1), 16)), m.group(2))
        strings[m.group(1)] = text.rstrip("\0")
    kernels = []
    for line in ir.splitlines():
        if line.startswith("@llvm.global.annotations"):
            for fn, note in _ANNOTATION.findall(line):
                if strings.get(note) == KERNEL_ANNOTATION:
                    sym = _symbol(fn)
                    if sym not in kernels:
                        kernels.append(sym)
    shared = [_symbol("@" + m.group(1)) for m in _EXTERNAL_TLS.finditer(ir)]
    return kernels, shared


def launch_bounds(ir: str) -> dict:
    """{kernel symbol: N} of the kernels declared __launch_bounds__(N, ...) (the x86-64
    pass annotates them "weft.launch_bounds" with the attribute's arguments)."""
    strings = {}
    for m in _STRING_GLOBAL.finditer(ir):
        text = re.sub(r"\\([0-9A-Fa-f]{2})", lambda x: chr(int(x.group(1), 16)), m.group(2))
        strings[m.group(1)] = text.rstrip("\0")
    first_args = {m.group(1): int(m.group(2)) for m in _ARGS_GLOBAL.finditer(ir)}
    bounds = {}
    for line in ir.splitlines():
        if line.startswith("@llvm.global.annotations"):
            for fn, note, args in _ANNOTATION_WITH_ARGS.findall(line):
                if strings.get(note) == LAUNCH_BOUNDS_ANNOTATION and args in first_args:
                    bounds[_symbol(fn)] = first_args[args]
    return bounds


# ---------------------------------------------------------------------------
# 2. the wrapper

def _split_top_level(text: str) -> list:
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    tail = "".join(current).strip()
    if tail:
        parts.append(tail)
    return parts


def _parameter_list(demangled: str):
    """(name as written, [parameter types]) of a demangled function, or None."""
    text = demangled.strip()
    if not text.endswith(")"):
        return None
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            depth -= 1
            if depth == 0:
                break
    else:
        return None
    name, params = text[:i].strip(), text[i + 1:-1].strip()
    if name.startswith("void ") and "<" in name:  # template instances carry their return type
        name = name[len("void "):]
    params = [] if params in ("", "void") else _split_top_level(params)
    params = [p.replace("(anonymous namespace)::", "") for p in params]
    return name.replace("(anonymous namespace)::", ""), params


def _demangle(symbols: list, job: Job) -> list:
    tool = shutil.which("llvm-cxxfilt-15") or shutil.which("llvm-cxxfilt") or shutil.which("c++filt")
    if not tool or not symbols:
        return list(symbols)
    proc = subprocess.run([tool], input="\n".join(symbols) + "\n", stdout=subprocess.PIPE,
                          text=True, check=False)
    out = proc.stdout.splitlines()
    return out if len(out) == len(symbols) else list(symbols)


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def wrapper_source(source: pathlib.Path, kernels: list, demangled: list, shared: list,
                   warn, bounds: dict = None) -> str:
    lines = [
        "// Generated by weftcc (tools/weftcc/weftcc_lib/cpu_image.py): the CPU image of",
        f"// {source}",
        f"#include {_c_string(str(source))}",
        "#include <hip/weft/device/x86_64_image.h>",
        "",
    ]
    index = 0
    for symbol, plain in zip(kernels, demangled):
        if not symbol.startswith("_Z"):  # extern "C": nameable, its type from decltype
            name, fn_type = symbol, f"decltype({symbol})"
        else:
            parsed = _parameter_list(plain)
            if parsed is None or any("{" in p or "::'" in p for p in parsed[1]):
                warn(f"kernel {symbol} ({plain}) has a parameter type weftcc cannot spell; "
                     "it has no CPU image (launching it on the CPU agent fails with "
                     "hipErrorNoBinaryForGpu)")
                continue
            name, params = parsed
            fn_type = f"void({', '.join(params)})"
        k = f"weft_kernel_{index}"
        sig = f"::weft::cpu_image::Signature<weft_kernel_type_{index}>"
        max_threads = (bounds or {}).get(symbol, DEFAULT_MAX_THREADS)
        if not 0 < max_threads <= DEFAULT_MAX_THREADS:
            warn(f"kernel {symbol} ({plain}): __launch_bounds__({max_threads}) is outside 1..{DEFAULT_MAX_THREADS}; "
                 f"its CPU record says {DEFAULT_MAX_THREADS}")
            max_threads = DEFAULT_MAX_THREADS
        # extern "C": a parameter type with internal linkage (an anonymous namespace's, a
        # .cpp's own) makes a C++ declaration that is never defined ill-formed; a C
        # declaration under the kernel's symbol is fine, and names no type across TUs.
        lines += [
            f"// {plain}",
            f"using weft_kernel_type_{index} = {fn_type};",
            f"extern \"C\" __device__ weft_kernel_type_{index} {k} __asm__({_c_string(symbol)});",
            f"__attribute__((section(\"weft_cpu_kernels\"), used, aligned(8))) __device__ weftCpuKernelRecord",
            f"    weft_kernel_record_{index} = {{{_c_string(name)}, (const void*)&{k},",
            f"        &{sig}::Entry<&{k}>::entry, {sig}::kSize, {sig}::kAlign, 0, {max_threads},",
            f"        {sig}::kCount, 0, {sig}::kCount ? {sig}::kArgs : nullptr}};",
            "",
        ]
        index += 1
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# 3. compile and link

def block_loops_plugin(job: Job):
    """The block-loop pass plugin (issue 18, tools/weftcc/passes/block_loops), or None.

    It turns each kernel it can handle into loops over the block's threads (no fibers
    at barriers, vectorized across GPU threads); the others run as before. Installed
    next to libamdhip64 (<libdir>/weft), or in the build tree beside weftcc's
    libdir; WEFTCC_BLOCK_LOOPS names another plugin, or turns it off with 0."""
    setting = os.environ.get("WEFTCC_BLOCK_LOOPS", "")
    if setting == "0":
        return None
    if setting:
        if not pathlib.Path(setting).is_file():
            raise TargetError(job.target, f"WEFTCC_BLOCK_LOOPS={setting}: no such plugin")
        return setting
    libdir = pathlib.Path(job.weft_libdir)
    for candidate in (libdir / "weft" / "weft_block_loops.so",
                      libdir.parent / "tools" / "weftcc" / "passes" / "block_loops" / "weft_block_loops.so"):
        if candidate.is_file():
            return str(candidate)
    return None


def block_loops_flags(job: Job) -> list:
    """The image compile's plugin flags; with -v the pass says which kernels run whole
    blocks and why the others stay on fibers (optimization remarks)."""
    plugin = block_loops_plugin(job)
    if not plugin:
        return []
    flags = [f"-fpass-plugin={plugin}"]
    if job.verbose:
        flags += ["-Rpass=weft-block-loops", "-Rpass-missed=weft-block-loops"]
    return flags


def build(job: Job) -> pathlib.Path:
    if job.target != "x86_64":
        raise TargetError(job.target, "cpu_image builds the x86_64 target only")
    work = pathlib.Path(job.workdir)
    flags = device_mode_flags(job, prelude=False)
    # Both passes parse the same headers first: one PCH of them (cpu_pch.py). Discovery
    # runs at the image's -O level (without LLVM passes) so that both match the PCH.
    headers = cpu_pch.Pch(job, flags)
    headers.prepare()
    if job.verbose:
        job.log(f"weftcc: x86_64: precompiled header {headers.path} ({'built' if headers.built else 'reused'})"
                if headers.path else f"weftcc: x86_64: no precompiled header ({headers.reason})")

    ir_path = work / "discovery.ll"
    headers.run(flags, ["-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S", str(job.source), "-o",
                        str(ir_path)], what="device compile")
    ir = ir_path.read_text(errors="replace")
    kernels, shared = discover(ir)
    if job.image_optional and not kernels and not shared and not _DEFINITION.search(ir):
        # No kernel, no device variable, nothing at all for the device: the wrapper would
        # compile to an image without records (the host pass registers nothing either).
        if job.verbose:
            job.log(f"weftcc: x86_64: {job.source} has no device code; no image unless the host pass registers any")
        return targets.no_device_code(job)
    warnings = []
    wrapper = work / "cpu_image.hip"
    wrapper.write_text(wrapper_source(job.source, kernels, _demangle(kernels, job), shared,
                                      warnings.append, launch_bounds(ir)))
    for w in warnings:
        job.log(f"weftcc: warning: {job.source}: [target {job.target}] {w}")

    obj = work / "cpu_image.o"
    headers.run(flags, [*block_loops_flags(job), "-c", str(wrapper), "-o", str(obj)],
                what="device compile (CPU image)")
    table_c = work / "cpu_image_table.c"
    table_c.write_text(TABLE_SOURCE)
    table = work / "cpu_image_table.o"
    job.run([job.clang, "-x", "c", "-fPIC", "-O2", "-isystem", str(job.weft_include), "-c",
             str(table_c), "-o", str(table)], what="CPU image table")
    image = work / "x86_64.so"
    # extern __shared__ arrays are the block's dynamic shared memory: each undefined
    # thread-local symbol becomes the image's storage (the linker keeps the TLS type).
    binds = [f"-Wl,--defsym={s}={DYNAMIC_SHARED_SYMBOL}" for s in shared]
    # -Bsymbolic: the image's references to its own kernels must not bind to the host
    # pass's launch handles, which carry the same names (a weftcc -shared library exports them).
    job.run([_clangxx(job), "-shared", "-fPIC", "-Wl,-Bsymbolic", str(obj), str(table), "-o", str(image), *binds],
            what="CPU image link")
    return image
