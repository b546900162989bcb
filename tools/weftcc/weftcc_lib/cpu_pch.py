# SPDX-License-Identifier: MIT
"""A precompiled header shared by the two device passes of the x86_64 step (cpu_image.py).

Both passes of the CPU image (kernel discovery, then the wrapper that includes the
source) start with weft's prelude and the source's first header (<hip/hip_runtime.h>
for the usual HIP source, a test's "hip_test.hpp" with Catch2 and half of libstdc++):
parsing those is most of each pass (~1.4 of ~1.7 CPU-s for bench/weftcc/kernels.hip,
~1.9 of ~2.2 for a conformance test). weftcc precompiles them once per distinct device
command line and first header and passes -include-pch to both passes instead of
`-include prelude.h`.

- What it covers: the prelude, plus the header the source's first directive includes
  (gpu_pch.first_include), so the PCH is exactly what the pass would have parsed
  first; the source's own #include of it is then a no-op (its include guard or #pragma
  once is in the PCH), and the wrapper's first directive includes the source. A quoted
  header found next to the source is included by its absolute path (the stub lives
  elsewhere); any other is included as the source spells it, through the same -iquote/-I
  folders. The headers' template instances are made in the PCH
  (-fpch-instantiate-templates). A header that does not work as a PCH (no include
  guard, say) fails the pass with the PCH, which then reruns as text and marks the
  key unusable (below).
- C++20 and later: the PCH is built and read with -Xclang -fno-cxx-modules
  (gpu_pch.CXX20_PCH_FLAGS: clang-15's C++20 modules merge host and device overloads
  of one signature when reading a PCH).
- Key (the file name): the device command line without input and output, the compiler
  (real path, size, mtime) and the stub's text. A manifest next to the PCH lists every file
  the PCH read (clang's dependency list: the stub, weft's headers, the C and C++
  libraries) with size, mtime and SHA-256; it is checked before each use (a file whose
  size or mtime changed is hashed), and a file whose contents changed, or a missing or
  unreadable manifest, makes weftcc build the PCH again. weft's headers come in through
  -isystem, and clang does not check system headers against a PCH itself: the manifest
  is what notices an edited header. The PCH is built without timestamps
  (-fno-pch-timestamp), so a file rewritten with the same contents does not make clang
  reject it.
- The stub source the PCH is built from (one `#include` line or two) lives in the cache
  folder, next to the PCHs: clang records its path and looks for it on every use.
- Not used: with a user `-include` (other than the prelude's
  own, as tests/weftcc_cpu/suite.py passes it), with WEFTCC_PCH=0, without
  a cache folder weftcc can write and no PCH in it yet ($WEFTCC_CACHE, else
  $XDG_CACHE_HOME/weftcc, else ~/.cache/weftcc).
- Fallback: a PCH that fails to build means the passes include the headers as text. A
  pass that fails with the PCH because clang calls the PCH stale (a file changed under
  it, the PCH missing or damaged) builds it again and retries once; any other failure
  with the PCH is retried with the headers as text, whose result and diagnostics decide,
  and when the text compiled (and the PCH run was an ordinary compile error, not a
  crash) the key is marked unusable (`.unusable` next to it) so later runs skip it.
- Concurrency (meson runs weftcc processes in parallel): the PCH and manifest are written
  under temporary names and renamed, so nobody sees half a file; the builder holds an
  flock on `<key>.lock` and the others wait for it and then use its PCH instead of
  building their own (without the lock, e.g. on a read-only cache, each builds its own).
"""
from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re

try:
    import fcntl
except ImportError:  # not POSIX: no lock, each process builds its own PCH
    fcntl = None

from . import gpu_pch
from .targets import Job, TargetError

FORMAT = "3"  # bump when the way the PCH is built or used changes
# The headers' own template instances are done once, in the PCH, rather than at the end
# of every pass (discovery 0.25 -> 0.11 CPU-s for bench/weftcc/kernels.hip).
INSTANTIATE = ["-Xclang", "-fpch-instantiate-templates"]
PRELUDE = "hip/weft/device/prelude.h"

# What clang says when a PCH no longer fits its inputs or cannot be read.
_STALE = ("has been modified since the precompiled header", "could not find file",
          "precompiled header", "PCH file", "AST file", "malformed or corrupted")


def is_stale(diagnostics: str) -> bool:
    return any(s in diagnostics for s in _STALE)


def _forces_other_includes(flags: list) -> bool:
    """Whether `flags` force includes other than the prelude (which the PCH begins with:
    a second `-include` of it is a no-op after the PCH)."""
    for i, f in enumerate(flags):
        if f == "-include":
            if flags[i + 1:i + 2] != [PRELUDE]:
                return True
        elif f.startswith("-include") or f.startswith("-imacros"):
            return True
    return False


def _compiler_identity(path: str) -> str:
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
        return f"{real} {st.st_size} {st.st_mtime_ns}"
    except OSError:
        return f"{real} missing"


def _file_hash(path: str):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def parse_depfile(text: str) -> list:
    """The prerequisites of a make-style dependency file (one target)."""
    text = text.replace("\\\n", " ")
    _, _, deps = text.partition(": ")
    out = []
    for token in re.split(r"(?<!\\)\s+", deps.strip()):
        token = token.replace("\\ ", " ").strip()
        if token:
            out.append(token)
    return out


def manifest_entries(paths: list) -> list:
    """[[path, size, mtime_ns, sha256]] of each file, absolute paths, in order, once."""
    entries, seen = [], set()
    for p in paths:
        p = os.path.abspath(p)
        if p in seen:
            continue
        seen.add(p)
        try:
            st = os.stat(p)
        except OSError:
            continue
        entries.append([p, st.st_size, st.st_mtime_ns, _file_hash(p)])
    return entries


def manifest_ok(manifest: pathlib.Path) -> bool:
    """Whether every file of the manifest still has its recorded contents."""
    try:
        data = json.loads(manifest.read_text())
        entries = data["files"]
        if data.get("format") != FORMAT or not entries:
            return False
        for path, size, mtime, digest in entries:
            try:
                st = os.stat(path)
            except OSError:
                return False
            if st.st_size != size:
                return False
            if st.st_mtime_ns != mtime and _file_hash(path) != digest:
                return False
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return True


def _unlink(path: pathlib.Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class _Lock:
    """An exclusive flock on `path` while in the `with` block; nothing when the file
    cannot be opened (read-only cache) or the system has no flock."""

    def __init__(self, path: pathlib.Path):
        self.path, self.fd = path, None

    def __enter__(self):
        if fcntl is None:
            return self
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except OSError:
            if self.fd is not None:
                os.close(self.fd)
            self.fd = None
        return self

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)  # releases the lock
        return False


def lead_include(source: pathlib.Path) -> str:
    """How the PCH's stub includes the source's first header (`<a/b.h>`, `"b.h"`, or a
    quoted absolute path when the header is next to the source), or "" for none."""
    spelled = gpu_pch.first_include(source)
    if not spelled:
        return ""
    if spelled.startswith('"'):
        beside = pathlib.Path(source).parent / spelled[1:-1]
        if beside.is_file():
            path = str(beside.resolve())
            return f'"{path}"' if '"' not in path and "\\" not in path else ""
    return spelled


class Pch:
    """The x86_64 step's PCH for one job: `run()` runs a pass with it (the PCH when usable,
    else the prelude as text). `path` is the PCH in use, `reason` why there is none."""

    def __init__(self, job: Job, flags: list, prefix: str = "cpu"):
        self.job = job
        self.prefix = prefix  # the cache files' names: "cpu" (x86_64 step), "prelude" (host pass)
        self.flags = flags  # device-mode flags without the prelude include
        self.path = None
        self.reason = ""
        self.built = False  # this job built the PCH (rather than reusing one)
        self.build_output = ""  # clang's output (warnings) when this job built it
        self._pch = None  # the PCH's place in the cache, once a key is known
        self._lead = ""  # the stub's include of the source's first header, if any
        self._language = gpu_pch.pch_language_flags(job.lang_std)  # both sides of the PCH

    def text_args(self) -> list:
        return ["-include", PRELUDE]

    def _files(self):
        pch = self._pch
        return pch, pch.with_suffix(".manifest"), pch.with_suffix(".unusable"), pch.with_suffix(".lock")

    def prepare(self) -> None:
        """Finds or builds this job's PCH; leaves `path` None (and says why in `reason`)
        when the passes are to include the headers as text."""
        job = self.job
        if not gpu_pch.enabled():
            self.reason = "WEFTCC_PCH=0"
            return
        if _forces_other_includes(job.extra_flags):
            self.reason = "the command line forces includes"
            return
        self._lead = lead_include(job.source)
        h = hashlib.sha256()
        for part in [FORMAT, self._stub_text(), _compiler_identity(self.flags[0]), *self.flags, *self._language]:
            h.update(str(part).encode() + b"\0")
        self._pch = gpu_pch.cache_dir() / f"{self.prefix}-{h.hexdigest()[:32]}.pch"
        self._find_or_build()

    def _usable(self) -> bool:
        pch, manifest, _, _ = self._files()
        return pch.is_file() and manifest_ok(manifest)

    def _find_or_build(self, rebuild: bool = False) -> None:
        pch, manifest, unusable, lock = self._files()
        self.path = None
        if unusable.exists():
            self.reason = f"{pch} is marked unusable ({unusable.name})"
            return
        if not rebuild and self._usable():
            self.path = pch
            return
        cache = pch.parent
        try:
            cache.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            self.reason = f"cache {cache} not usable ({e.strerror})"
            return
        with _Lock(lock):
            # Another process may have built it while this one waited for the lock.
            if not rebuild and self._usable():
                self.path = pch
                return
            self._build()

    def _stub_text(self) -> str:
        return f"#include <{PRELUDE}>\n" + (f"#include {self._lead}\n" if self._lead else "")

    def _stub(self, cache: pathlib.Path) -> pathlib.Path:
        """The PCH's source in the cache folder (clang records its path), named by its
        text. Rewriting it with the same text is harmless: the PCH has no timestamps."""
        text = self._stub_text()
        stub = cache / f"{self.prefix}-stub-{hashlib.sha256(text.encode()).hexdigest()[:16]}.hip"
        try:
            if stub.read_text() == text:
                return stub
        except OSError:
            pass
        tmp = cache / f".{stub.name}.{os.getpid()}"
        tmp.write_text(text)
        os.replace(tmp, stub)
        return stub

    def _build(self) -> None:
        job = self.job
        pch, manifest, _, _ = self._files()
        cache = pch.parent
        tag = f"{os.getpid()}.{id(self)}"
        tmp, tmp_manifest = cache / f".{pch.name}.{tag}", cache / f".{manifest.name}.{tag}"
        deps = pathlib.Path(job.workdir) / "cpu_pch.d"
        try:
            stub = self._stub(cache)
            self.build_output = job.run(
                [*self.flags, *self._language, "-Xclang", "-fno-pch-timestamp", *INSTANTIATE, "-Xclang", "-emit-pch",
                 "-MD", "-MF", str(deps), "-c", str(stub), "-o", str(tmp)], f"precompiling headers ({job.target})")
            files = manifest_entries(parse_depfile(deps.read_text(errors="replace")))
            tmp_manifest.write_text(json.dumps({"format": FORMAT, "files": files}, indent=0))
            os.replace(tmp, pch)
            os.replace(tmp_manifest, manifest)
        except OSError as e:
            _unlink(tmp)
            _unlink(tmp_manifest)
            self.reason = f"cache {cache} not writable ({e.strerror})"
            return
        except TargetError:
            _unlink(tmp)
            self.reason = "the PCH did not build"  # the passes then show any error themselves
            return
        self.path, self.built = pch, True

    def _discard(self) -> None:
        pch, manifest, _, _ = self._files()
        _unlink(manifest)
        _unlink(pch)

    def run(self, cmd_before: list, cmd_after: list, what: str) -> str:
        """Runs `cmd_before + <prelude args> + cmd_after`: with the PCH when there is one;
        a stale PCH is built again and the pass retried once; any other failure with the
        PCH runs the pass with the headers as text, whose result decides."""
        text = [*cmd_before, *self.text_args(), *cmd_after]
        if not self.path:
            return self.job.run(text, what)
        try:
            return self.job.run([*cmd_before, *self._language, "-include-pch", str(self.path), *cmd_after], what)
        except TargetError as e:
            first = e
        if is_stale(first.diagnostics):
            if self.job.verbose:
                self.job.log(f"weftcc: x86_64: {self.path} is stale; building it again")
            self._discard()
            self._find_or_build(rebuild=True)
            if self.path:
                try:
                    return self.job.run([*cmd_before, *self._language, "-include-pch", str(self.path), *cmd_after], what)
                except TargetError as e:
                    first = e
        failed, self.path = self._pch, None
        out = self.job.run(text, what)  # raises with the text pass's diagnostics
        if first.returncode == 1 and not is_stale(first.diagnostics):
            # An ordinary compile error with the PCH where the headers as text compile:
            # this key's PCH does not fit such sources; later runs do without.
            try:
                failed.with_suffix(".unusable").touch()
            except OSError:
                pass
            self.reason = f"{failed} failed where the headers as text compiled"
        else:
            self.reason = f"{failed} did not work (exit {first.returncode})"
        if self.job.verbose:
            self.job.log(f"weftcc: x86_64: {self.reason}")
        return out
