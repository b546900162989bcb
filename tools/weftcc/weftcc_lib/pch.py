# SPDX-License-Identifier: MIT
"""A precompiled prelude for the host pass.

Every HIP translation unit starts with hip/weft/device/prelude.h (the C and C++
libraries made host+device): parsing it is most of a host pass (about 1.2 of 1.3 CPU
seconds for bench/weftcc/kernels.hip). weftcc precompiles it once per distinct host
command line and reuses it with -include-pch, which is what the prelude would have been
anyway: the first thing of the translation unit, before any of the source's headers.

The cache folder is $WEFTCC_CACHE, else $XDG_CACHE_HOME/weftcc, else ~/.cache/weftcc
(WEFTCC_PCH=0: no PCH). A file's name is the hash of everything that can
change its meaning: the compile command (flags, include dirs, macros), the compiler
binary, and the size and mtime of every header under weft's include dir. clang itself
also records the system headers it read and rejects a PCH one of them changed under;
weftcc then builds it again. Writes go to a temporary file renamed into place, so
concurrent weftcc runs never see half a PCH.
"""
from __future__ import annotations

import hashlib
import os
import pathlib
import subprocess
import tempfile

from . import gpu_pch

FORMAT = "2"  # bump when the way weftcc builds or uses the PCH changes


def cache_dir():
    # The same switch and folder as the GPU and x86_64 passes' PCHs (gpu_pch.py).
    if os.environ.get("WEFTCC_PCH", "1") == "0":
        return None
    return gpu_pch.cache_dir()


def _stat_line(path: pathlib.Path) -> str:
    try:
        st = path.stat()
    except OSError:
        return f"{path} missing"
    return f"{path} {st.st_size} {st.st_mtime_ns}"


def _key(command: list, compiler: str, weft_include: pathlib.Path) -> str:
    h = hashlib.sha256()
    h.update(FORMAT.encode())
    for part in command:
        h.update(b"\0" + str(part).encode())
    h.update(_stat_line(pathlib.Path(os.path.realpath(compiler))).encode())
    for folder, _, files in sorted(os.walk(weft_include)):
        for name in sorted(files):
            h.update(_stat_line(pathlib.Path(folder) / name).encode())
    return h.hexdigest()[:32]


def prelude_pch(command: list, prelude: pathlib.Path, weft_include: pathlib.Path, show):
    """The path of a PCH of `prelude` built with `command` (a host-pass command line
    without source, output or -include), or None when there is no usable cache (the
    caller then includes the prelude as text). `show(cmd)` prints a command under -v."""
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"prelude-{_key(command, command[0], weft_include)}.pch"
    if path.with_suffix(".unusable").exists():
        return None
    if path.is_file():
        return path
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", dir=folder)
        os.close(fd)
    except OSError:
        return None  # no writable cache: compile without it
    # The prelude's own template instances are made once, in the PCH (host pass of
    # bench/weftcc/kernels.hip: 0.65 -> 0.50 CPU-s).
    build = [*command, "-c", "-Xclang", "-fpch-instantiate-templates", "-Xclang", "-emit-pch", "-o", tmp,
             str(prelude)]
    show(build)
    proc = subprocess.run(build, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        os.unlink(tmp)
        return None  # the host pass then includes the prelude and shows any error itself
    os.replace(tmp, path)
    return path


def discard(path: pathlib.Path, unusable: bool) -> None:
    """Drops a PCH: a stale one is rebuilt by the next run; an `unusable` one (it failed
    where the text prelude compiled) gets a marker so that later runs with the same
    command line do without."""
    try:
        if unusable:
            path.with_suffix(".unusable").touch()
        path.unlink()
    except OSError:
        pass


def is_stale_pch_error(output: str) -> bool:
    return "precompiled header" in output or "PCH file" in output
