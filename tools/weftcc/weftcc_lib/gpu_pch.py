# SPDX-License-Identifier: MIT
"""Precompiled weft headers for the GPU device passes (nvidia_image, amd_image).

Parsing <hip/hip_runtime.h> in HIP mode (the C and C++ libraries its prelude makes
host+device, the device language) is most of a GPU pass: ~4 s of ~4.7 s for a
200-line kernel file on this project's machines. A source whose first directive
is `#include <hip/hip_runtime.h>` gets the same declarations from a clang PCH of
that one include, built once per distinct compile configuration and kept in
weftcc's cache, so each later pass parses only the user's code.

Key: the cc1 arguments that shape the AST (target, language options, -D/-U/-I,
-O, ...; not the input, output or linked bitcode), the compiler binary, and every
header under weft's include dir (path, size, mtime), so an edited header or a new
flag makes a new PCH. Entries are written to a temporary name and renamed, so
parallel compiles never see half a file. WEFTCC_PCH=0 turns it off, and C++20 and later
go without (cxx20_or_later); the cache is $WEFTCC_CACHE, else $XDG_CACHE_HOME/weftcc,
else ~/.cache/weftcc.
"""
from __future__ import annotations

import hashlib
import os
import pathlib
import re
import threading

from .targets import Job, TargetError

FORMAT = "2"  # bump when the way the PCH is built or used changes
_FIRST_DIRECTIVE = re.compile(r'\s*#\s*include\s*[<"]hip/hip_runtime\.h[>"]')
# cc1 options that name this compile's files rather than shape the AST.
_PER_FILE_WITH_VALUE = {"-o", "-main-file-name", "-mlink-builtin-bitcode", "-fdebug-compilation-dir",
                        "-fcoverage-compilation-dir"}
_PER_FILE_PREFIXES = ("-cuid=", "-fdebug-compilation-dir=", "-fcoverage-compilation-dir=")


def enabled() -> bool:
    return os.environ.get("WEFTCC_PCH", "1") != "0"


_CXX20_OR_LATER = re.compile(r"^(c|gnu)\+\+(2[0-9a-z]|[3-9][0-9])$")


def cxx20_or_later(std: str) -> bool:
    """-std=c++20 and later: no PCH in any pass. clang-15 merges the prelude's device
    placement new with libstdc++'s host one when it reads a PCH in C++20 mode ("'operator
    new' has different definitions in different modules" as soon as the source includes
    <string> after it; made identical, the merge then loses operator delete overloads),
    so those compiles parse the headers as text."""
    return bool(_CXX20_OR_LATER.match(std or ""))


# clang-15 turns C++20 modules on with -std=c++20 and, reading a PCH, then merges every
# pair of declarations of the same signature that differ only in __host__/__device__
# (the global operator new/delete clang declares for each side, the prelude's device
# placement new next to libstdc++'s host one): "'operator new' has different definitions
# in different modules", then "no matching function for call to 'operator new'". Without
# C++20 modules (which no HIP source can use with weftcc anyway) nothing is merged, and
# the PCH reads as in C++17. Every compile that builds or reads a PCH in C++20 mode and
# later passes this (the same language options on both sides); text compiles do not.
CXX20_PCH_FLAGS = ["-Xclang", "-fno-cxx-modules"]


def pch_language_flags(std: str) -> list:
    """The driver flags a PCH compile adds for `std` (CXX20_PCH_FLAGS from C++20 on)."""
    return list(CXX20_PCH_FLAGS) if cxx20_or_later(std) else []


def cache_dir() -> pathlib.Path:
    if os.environ.get("WEFTCC_CACHE"):
        return pathlib.Path(os.environ["WEFTCC_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "weftcc"


def starts_with_runtime_include(source: pathlib.Path) -> bool:
    """Whether the first preprocessing directive (after comments) includes hip_runtime.h:
    only then is the PCH exactly what the source would have parsed first."""
    line = _first_code_line(source)
    return line is not None and bool(_FIRST_DIRECTIVE.match(line))


def _first_code_line(source: pathlib.Path):
    """The source's first line that is not blank or a comment, or None (unreadable, empty)."""
    try:
        text = source.read_text(errors="replace")
    except OSError:
        return None
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    for line in text.splitlines():
        line = line.split("//", 1)[0]
        if line.strip():
            return line
    return None


_FIRST_INCLUDE = re.compile(r'\s*#\s*include\s*(<[^<>"]+>|"[^"]+")\s*$')


def first_include(source: pathlib.Path):
    """The header the source's first preprocessing directive (after comments) includes,
    as the directive spells it (`<a/b.h>` or `"b.h"`), or None when the first directive
    is anything else (a #define, #if, #pragma, a computed #include) or there is none."""
    line = _first_code_line(source)
    m = _FIRST_INCLUDE.match(line) if line is not None else None
    return m.group(1) if m else None


def shaping_args(cc1: list, source: str) -> list:
    """cc1 arguments without the ones naming this compile's input, output and bitcode."""
    out, i = [], 0
    while i < len(cc1):
        a = cc1[i]
        if a in _PER_FILE_WITH_VALUE:
            i += 2
            continue
        if a == source or a.startswith(_PER_FILE_PREFIXES) or a in ("-S", "-emit-obj", "-emit-llvm-bc"):
            i += 1
            continue
        out.append(a)
        i += 1
    return out


def _headers_fingerprint(include: pathlib.Path) -> str:
    h = hashlib.sha256()
    for p in sorted(include.rglob("*")):
        if p.is_file():
            st = p.stat()
            h.update(f"{p}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def pch_for(job: Job, cc1: list, source: str) -> list:
    """The cc1 arguments that make this compile use a cached PCH of hip_runtime.h
    (building it first when missing), or [] when the source cannot use one. `cc1` is
    the full cc1 command ending in "-x hip <source>" (and maybe "-o <out>")."""
    if not enabled() or cxx20_or_later(job.lang_std) or not starts_with_runtime_include(job.source):
        return []
    base = shaping_args(cc1, source)
    compiler = pathlib.Path(base[0])
    st = compiler.stat() if compiler.exists() else None
    key = hashlib.sha256("\0".join(base[1:] + [str(compiler), str(st and st.st_mtime_ns), FORMAT,
                                               _headers_fingerprint(job.weft_include)]).encode()).hexdigest()[:32]
    cache = cache_dir()
    pch = cache / f"hip_runtime-{key}.pch"
    if not pch.is_file():
        try:
            cache.mkdir(parents=True, exist_ok=True)
        except OSError:
            return []  # no writable cache: compile without
        # The PCH names its input, which clang checks on every use: the stub lives in
        # the cache, next to the PCHs. Temporary names carry the thread too: the GPU
        # targets of one weftcc run build their PCHs in parallel threads.
        tag = f"{os.getpid()}.{threading.get_ident()}"
        stub = cache / "weftcc-pch.hip"
        tmp = cache / f".{pch.name}.{tag}"
        try:
            if not stub.is_file():
                tmp_stub = cache / f".weftcc-pch.hip.{tag}"
                tmp_stub.write_text("#include <hip/hip_runtime.h>\n")
                os.replace(tmp_stub, stub)
            # `base` ends in "-x hip" (its source taken out): the stub is the input.
            # The headers' template instances are made once, in the PCH.
            cmd = base + [str(stub), "-fpch-instantiate-templates", "-emit-pch", "-o", str(tmp)]
            job.run(cmd, "precompiling weft's headers")
            os.replace(tmp, pch)
        except (OSError, TargetError):
            # A cache weftcc cannot write, or headers that do not precompile: the
            # compile goes without (and shows any error in the headers itself).
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return []
    return ["-include-pch", str(pch)]


# What clang says when a PCH no longer fits (a system header changed since, the
# cache was edited): the compile then runs without it and the stale file goes.
_STALE = ("AST file", "precompiled header", "PCH file")


def run_compile(job: Job, cmd: list, pch_args: list, what: str) -> None:
    """Runs the compile `cmd` with `pch_args` (pch_for's answer); when clang rejects
    the PCH itself, deletes it and compiles without."""
    if not pch_args:
        job.run(cmd, what)
        return
    try:
        job.run(cmd + pch_args, what)
    except TargetError as e:
        if not any(s in e.diagnostics for s in _STALE):
            raise
        try:
            os.unlink(pch_args[1])
        except OSError:
            pass
        job.run(cmd, what)
