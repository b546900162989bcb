# SPDX-License-Identifier: MIT
"""weftcc's pipeline: device steps -> offload bundle -> host pass -> link.

One HIP translation unit becomes one object: each target's module builds an image
(targets.py), clang-offload-bundler packs the images with the entry IDs of
docs/code-objects.md, and clang's HIP front end compiles the host side against weft's
headers with the bundle embedded (.hip_fatbin + the __hipRegisterFatBinary constructor
that hipcc's objects carry). Objects then link like any C++ objects, with libamdhip64.
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import traceback

from . import bundle, cli, cpu_pch, detect, gpu_pch, pch, targets

DEFAULT_STD = "c++17"
PRELUDE = "hip/weft/device/prelude.h"  # weft's include dir; see hip_host_command
# clang's HIP toolchain optimises device code at -O3 unless told otherwise; weftcc does
# the same for every target, so an unoptimised host build still gets fast kernels.
DEFAULT_DEVICE_OPT = "-O3"


# Options that describe the host CPU: the host pass and the x86_64 image take them, a GPU
# target does not (its processor is the --offload-arch).
_X86_MACHINE = re.compile(r"^-m(no-)?(arch=|tune=|cpu=|avx|sse|ssse|fma|f16c|bmi|lzcnt|popcnt|aes|pclmul|"
                          r"rdrnd|rdseed|sha|vaes|vpclmulqdq|gfni|adx|movbe|xsave|prefer-vector-width=|"
                          r"red-zone|cx16|64$|32$)")


def device_flags(flags: list, target: str) -> list:
    if targets.target_kind(target) == "cpu":
        return list(flags)
    return [f for f in flags if not _X86_MACHINE.match(f)]


@dataclasses.dataclass
class Paths:
    weft_include: pathlib.Path
    weft_libdir: pathlib.Path
    weft_version: str


class WeftccError(Exception):
    """A failure already explained to the user; exit with `code`."""

    def __init__(self, message: str = "", code: int = 1):
        super().__init__(message)
        self.code = code


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _find_tool(names: list) -> str:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    for name in names:
        candidate = pathlib.Path("/usr/lib/llvm-15/bin") / name.replace("-15", "")
        if candidate.is_file():
            return str(candidate)
    return ""


@dataclasses.dataclass
class Toolchain:
    clang: str
    clangxx: str
    bundler: str
    linker: str
    objcopy: str

    @staticmethod
    def find() -> "Toolchain":
        clang = os.environ.get("WEFTCC_CLANG") or _find_tool(["clang-15"])
        clangxx = ""
        if clang:
            sibling = pathlib.Path(clang).with_name(pathlib.Path(clang).name.replace("clang", "clang++", 1))
            clangxx = str(sibling) if sibling.is_file() else _find_tool(["clang++-15"])
        bundler = _find_tool(["clang-offload-bundler-15"])
        linker = clangxx or _find_tool(["g++"])
        return Toolchain(clang, clangxx, bundler, linker, _find_tool(["objcopy", "llvm-objcopy-15"]))

    def need(self, what: str) -> str:
        path = getattr(self, what)
        if not path:
            hint = {"clang": "clang-15 (Debian package clang-15)",
                    "clangxx": "clang++-15 (Debian package clang-15)",
                    "bundler": "clang-offload-bundler-15 (Debian package clang-tools-15)",
                    "linker": "clang++-15 or g++"}[what]
            raise WeftccError(f"weftcc: error: {hint} not found")
        return path


class Driver:
    def __init__(self, opts: cli.Options, paths: Paths, tools: Toolchain):
        self.opts = opts
        self.paths = paths
        self.tools = tools

    # -- running commands -------------------------------------------------

    def show(self, cmd: list) -> None:
        if self.opts.verbose:
            log(" ".join(shlex.quote(str(c)) for c in cmd))

    def run_host(self, cmd: list) -> None:
        """A host-side command: its diagnostics go straight to the user's terminal. Under
        -v clang is verbose too (as with hipcc): CMake reads the implicit include and link
        folders from that output."""
        cmd = [str(c) for c in cmd]
        if self.opts.verbose:
            cmd.insert(1, "-v")
        self.show(cmd)
        try:
            rc = subprocess.run(cmd).returncode
        except OSError as e:
            raise WeftccError(f"weftcc: error: cannot run {cmd[0]}: {e.strerror}")
        if rc != 0:
            raise WeftccError("", rc)

    def run_quiet(self, cmd: list) -> None:
        cmd = [str(c) for c in cmd]
        self.show(cmd)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors="replace")
        if proc.returncode != 0:
            raise WeftccError(f"weftcc: error: {pathlib.Path(cmd[0]).name} failed "
                              f"(exit {proc.returncode})\n{proc.stdout.rstrip()}")

    # -- targets ----------------------------------------------------------

    def resolve_targets(self) -> list:
        if self.opts.no_arch:
            return []
        if self.opts.archs:
            chosen, origin = [], "--offload-arch"
            for arch in self.opts.archs:
                chosen += detect.machine_targets() if arch == "native" else [arch]
        else:
            chosen, origin = detect.default_targets()
            if self.opts.verbose:
                log(f"weftcc: targets from {origin}: {', '.join(chosen)}")
        unknown = [t for t in chosen if targets.target_kind(t) is None]
        if unknown:
            raise WeftccError(f"weftcc: error: unknown offload arch {', '.join(repr(t) for t in unknown)} "
                              f"(from {origin}); weftcc knows: {targets.known_targets_text()}")
        return list(dict.fromkeys(chosen))

    # -- one translation unit --------------------------------------------

    def host_flags(self) -> list:
        o = self.opts
        flags = [f"-std={o.lang_std or DEFAULT_STD}"]
        if o.opt:
            flags.append(o.opt)
        if o.debug:
            flags.append("-g")
        flags += [f"-D{d}" for d in o.defines] + [f"-U{u}" for u in o.undefines]
        flags += [f"-I{i}" for i in o.include_dirs]
        flags += ["-isystem", str(self.paths.weft_include)]
        flags += o.compile_flags + o.host_compile_flags
        if o.shared and o.mode == "link" and not any(f.lower().startswith("-fpi") for f in o.compile_flags):
            flags.append("-fPIC")  # the objects of this command go into a shared library
        return flags

    def hip_host_base(self) -> list:
        # -nogpuinc: no clang HIP wrapper headers, no /usr/include/hip (AMD's headers);
        # weft's headers provide the whole HIP language. -nogpulib: no ROCm device libraries.
        return [self.tools.need("clangxx"), "-x", "hip", "--cuda-host-only", "-nogpuinc", "-nogpulib",
                *self.host_flags()]

    def hip_host_command(self, source: str, prelude=None) -> list:
        # The prelude comes first, before any header of the source (the user's -include
        # ones included): it makes the C library and <cmath> callable from kernels
        # (host+device), as clang's wrapper headers do for hipcc, and every device step
        # includes it the same way. `prelude` is a PCH of it and the source's first header
        # (prelude_pch), else it is text.
        base = self.hip_host_base()
        first = ["-include", PRELUDE]
        if prelude:
            first = [*gpu_pch.pch_language_flags(self.opts.lang_std or DEFAULT_STD), "-include-pch", str(prelude)]
        return base[:6] + first + base[6:] + [source]

    def prelude_pch(self, source: str, workdir: pathlib.Path):
        """A cached PCH of the prelude and the source's first header for this command line,
        or None: cpu_pch.Pch's cache, key, manifest and lock, with the host pass's flags
        (cache files prelude-*). In C++20 mode it is built and read with
        gpu_pch.CXX20_PCH_FLAGS."""
        o = self.opts
        if not gpu_pch.enabled():
            return None
        job = targets.Job(
            source=pathlib.Path(source).resolve(), target="host", lang_std=o.lang_std or DEFAULT_STD, defines=[],
            undefines=[], include_dirs=[], opt=o.opt or "", debug=o.debug, extra_flags=list(o.compile_flags),
            workdir=workdir, clang=self.tools.need("clang"), weft_include=self.paths.weft_include,
            weft_libdir=self.paths.weft_libdir, verbose=o.verbose, log=log)
        headers = cpu_pch.Pch(job, self.hip_host_base(), prefix="prelude")
        headers.prepare()  # None with the user's own -include (other than the prelude)
        if headers.built and headers.build_output and not o.verbose:
            # The headers' warnings, once: later passes read them from the PCH, silently.
            sys.stderr.write(headers.build_output)
            sys.stderr.flush()
        if o.verbose:
            log(f"weftcc: host pass: precompiled header {headers.path} ({'built' if headers.built else 'reused'})"
                if headers.path else f"weftcc: host pass: no precompiled header ({headers.reason})")
        return headers.path

    def make_job(self, source: pathlib.Path, target: str, workdir: pathlib.Path,
                 image_optional: bool = False) -> targets.Job:
        o = self.opts
        jobdir = workdir / target.replace(":", "_").replace("+", "on").replace("-", "off")
        if image_optional is False and jobdir.exists():  # the step again, for a real image
            shutil.rmtree(jobdir)
        jobdir.mkdir()
        return targets.Job(
            source=source.resolve(), target=target, lang_std=o.lang_std or DEFAULT_STD,
            defines=list(o.defines), undefines=list(o.undefines), include_dirs=list(o.include_dirs),
            opt=o.opt or DEFAULT_DEVICE_OPT, debug=o.debug, extra_flags=device_flags(o.compile_flags, target),
            workdir=jobdir, clang=self.tools.need("clang"), weft_include=self.paths.weft_include,
            weft_libdir=self.paths.weft_libdir, verbose=o.verbose, rdc=o.rdc, image_optional=image_optional,
            log=log)

    def device_images(self, source: pathlib.Path, chosen: list, workdir: pathlib.Path,
                      image_optional: bool = False) -> list:
        """[(target, image path)] in the order of `chosen`; every failing target is reported.
        With image_optional a target may answer targets.no_device_code (see there)."""
        jobs = [self.make_job(source, t, workdir, image_optional) for t in chosen]

        def build(job):
            module = targets.module_for(job.target)
            try:
                image = module.build(job)
            except targets.TargetError:
                raise
            except Exception as e:  # a bug in a target module: say where, never a bare traceback
                detail = traceback.format_exc() if self.opts.verbose else ""
                raise targets.TargetError(job.target, f"internal error in {module.__name__}: {e!r}", detail)
            image = pathlib.Path(image)
            if targets.is_no_device_code(image) and not job.image_optional:
                raise targets.TargetError(job.target, f"{module.__name__} returned no image for a required one")
            if not image.is_file() or image.stat().st_size == 0:
                raise targets.TargetError(job.target, f"{module.__name__} returned no image ({image})")
            return image

        workers = self.opts.jobs or os.cpu_count() or 1
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(workers, len(jobs)))) as pool:
            futures = [pool.submit(build, job) for job in jobs]
        failures, images = [], []
        for job, future in zip(jobs, futures):
            try:
                images.append((job.target, future.result()))
            except targets.TargetError as e:
                failures.append(e)
        if failures:
            lines = []
            for e in failures:
                lines.append(f"weftcc: error: {source}: [target {e.target}] {e.message}")
                if e.diagnostics:
                    lines.append(e.diagnostics.rstrip())
            raise WeftccError("\n".join(lines))
        return images

    def write_bundle(self, images: list, output: pathlib.Path) -> None:
        entries = [(targets.HOST_ENTRY_ID, None)]
        entries += [(targets.bundle_entry_id(t), path) for t, path in images]
        bundle.make_bundle(self.tools.need("bundler"), entries, output, self.run_quiet)

    def compile_hip(self, source: str, output: str, chosen: list, workdir: pathlib.Path) -> None:
        src = pathlib.Path(source)
        tail = self.opts.host_only_flags + ["-c", "-o"]
        fatbin = workdir / (src.name + ".hipfb")
        if not chosen:  # --no-offload-arch=all: kernels get registered, with no image
            bundle.write_host_only(targets.HOST_ENTRY_ID, fatbin)
            HostPass(self, source, ["-Xclang", "-fcuda-include-gpubinary", "-Xclang", str(fatbin)],
                     tail + [output], workdir).run()
            return
        objcopy = self.tools.objcopy
        embed = ["-Xclang", "-fcuda-include-gpubinary", "-Xclang"]
        if not objcopy or any(f.startswith("-flto") for f in self.opts.compile_flags + self.opts.host_compile_flags):
            # One after the other: the host pass embeds the finished bundle.
            self.write_bundle(self.device_images(src, chosen, workdir), fatbin)
            HostPass(self, source, embed + [str(fatbin)], tail + [output], workdir).run()
            return
        # The host pass runs while the device steps do: it embeds a placeholder bundle, and
        # the finished one replaces it (objcopy --update-section; a relocatable object's
        # section may change size, and only the wrapper's relocation points into it).
        placeholder = workdir / "placeholder.hipfb"
        placeholder.write_bytes(bundle.MAGIC + bytes(8))  # a bundle of no entries
        host_object = workdir / "host.o"
        host = HostPass(self, source, embed + [str(placeholder)], tail + [str(host_object)], workdir)
        host.start()
        device_error = None
        try:
            images = self.device_images(src, chosen, workdir, image_optional=True)
        except WeftccError as e:
            device_error = e
        try:
            host.finish()  # its diagnostics, if any, are on the terminal by now
        except WeftccError:
            if device_error is None:
                raise
        if device_error is not None:
            raise device_error  # the failing targets, named
        if bundle.has_section(host_object, bundle.SECTION):
            skipped = [t for t, path in images if targets.is_no_device_code(path)]
            if skipped:  # the host pass registers something after all: build those images
                if self.opts.verbose:
                    log(f"weftcc: {source}: the host pass registers device code; building {', '.join(skipped)}")
                again = dict(self.device_images(src, skipped, workdir))
                images = [(t, again.get(t, path)) for t, path in images]
            self.write_bundle(images, fatbin)
            self.run_quiet([objcopy, f"--update-section={bundle.SECTION}={fatbin}", host_object, output])
        else:  # no kernel and no device variable: clang registered nothing, so no bundle
            shutil.copyfile(host_object, output)

    def compile_plain(self, x: cli.Input, output: str) -> None:
        """C and plain C++ (-x c++) sources: host only, against weft's headers (the
        single-source path for C++)."""
        o = self.opts
        if x.lang == "c":
            flags = [f for f in self.host_flags() if not f.startswith("-std=")]
            if o.lang_std.startswith(("c9", "c1", "c2", "gnu9", "gnu1", "gnu2")) and "++" not in o.lang_std:
                flags.insert(0, f"-std={o.lang_std}")
            cmd = [self.tools.need("clang"), "-x", "c", *flags]
        else:
            cmd = [self.tools.need("clangxx"), "-x", "c++", *self.host_flags()]
        self.run_host(cmd + [x.path] + o.host_only_flags + ["-c", "-o", output])

    def compile_one(self, x: cli.Input, output: str, chosen: list) -> None:
        with self.workdir(x.path) as workdir:
            if x.lang == "hip":
                self.compile_hip(x.path, output, chosen, workdir)
            else:
                self.compile_plain(x, output)

    def workdir(self, source: str):
        stem = pathlib.Path(source).stem
        if self.opts.save_temps:
            path = pathlib.Path(tempfile.mkdtemp(prefix=f"weftcc-{stem}-"))
            log(f"weftcc: keeping temporary files of {source} in {path}")
            return _Kept(path)
        return _Removed(tempfile.TemporaryDirectory(prefix=f"weftcc-{stem}-"))

    # -- modes ------------------------------------------------------------

    def mode_compile(self) -> None:
        chosen = self.resolve_targets()
        for x in self.opts.inputs:
            if x.lang == "link":
                log(f"weftcc: warning: {x.path}: linker input unused with -c")
                continue
            output = self.opts.output or (pathlib.Path(x.path).stem + ".o")
            self.compile_one(x, output, chosen)

    def mode_link(self) -> None:
        chosen = self.resolve_targets() if any(x.lang == "hip" for x in self.opts.inputs) else []
        output = self.opts.output or "a.out"
        with tempfile.TemporaryDirectory(prefix="weftcc-link-") as tmp:
            objects = []
            for n, x in enumerate(self.opts.inputs):
                if x.lang == "link":
                    objects.append(x.path)
                    continue
                obj = str(pathlib.Path(tmp) / f"{n}-{pathlib.Path(x.path).stem}.o")
                self.compile_one(x, obj, chosen)
                objects.append(obj)
            self.link(objects, output)

    def link(self, objects: list, output: str) -> None:
        libdir = str(self.paths.weft_libdir)
        cmd = [self.tools.need("linker"), *objects, "-o", output, *self.opts.link_flags,
               f"-L{libdir}", f"-Wl,-rpath,{libdir}", "-lamdhip64", "-pthread"]
        if self.opts.debug:
            cmd.insert(1, "-g")
        self.run_host(cmd)

    def mode_genco(self) -> None:
        chosen = self.resolve_targets()
        if not chosen:
            raise WeftccError("weftcc: error: --genco needs at least one offload arch")
        x = self.opts.inputs[0]
        src = pathlib.Path(x.path)
        with self.workdir(x.path) as workdir:
            images = self.device_images(src, chosen, workdir)
            if len(images) == 1:
                output = self.opts.output or f"{src.stem}-{chosen[0].replace(':', '_')}.co"
                shutil.copyfile(images[0][1], output)
            else:
                output = self.opts.output or f"{src.stem}.hipfb"
                self.write_bundle(images, pathlib.Path(output))

    def mode_preprocess(self) -> None:
        for x in self.opts.inputs:
            if x.lang == "link":
                continue
            if x.lang == "hip":
                cmd = self.hip_host_command(x.path)
            else:
                cmd = [self.tools.need("clang" if x.lang == "c" else "clangxx"), "-x", x.lang,
                       *self.host_flags(), x.path]
            cmd += ["-E"] if self.opts.mode == "preprocess" else []
            cmd += self.opts.host_only_flags
            if self.opts.output:
                cmd += ["-o", self.opts.output]
            self.run_host(cmd)

    def run(self) -> None:
        cli.check_inputs(self.opts)
        {"compile": self.mode_compile, "link": self.mode_link, "genco": self.mode_genco,
         "preprocess": self.mode_preprocess, "deps": self.mode_preprocess}[self.opts.mode]()


class HostPass:
    """One host-pass compile, started now or later. With a precompiled prelude its output
    is captured: when that compile fails, the pass runs again with the prelude as text,
    whose diagnostics are the ones the user sees; otherwise the captured output is shown
    as clang wrote it."""

    def __init__(self, driver: "Driver", source: str, middle: list, tail: list, workdir: pathlib.Path):
        self.driver, self.source, self.middle, self.tail = driver, source, middle, tail
        self.log_path = workdir / "host-pass.log"
        self.pch = driver.prelude_pch(source, workdir)
        self.proc = None

    def command(self, prelude) -> list:
        cmd = [str(c) for c in self.driver.hip_host_command(self.source, prelude) + self.middle + self.tail]
        if self.driver.opts.verbose:
            cmd.insert(1, "-v")
        return cmd

    def start(self) -> None:
        cmd = self.command(self.pch)
        self.driver.show(cmd)
        try:
            if self.pch:
                with open(self.log_path, "wb") as log_file:
                    self.proc = subprocess.Popen(cmd, stdout=log_file, stderr=subprocess.STDOUT)
            else:
                self.proc = subprocess.Popen(cmd)
        except OSError as e:
            raise WeftccError(f"weftcc: error: cannot run {cmd[0]}: {e.strerror}")

    def finish(self) -> None:
        rc = self.proc.wait()
        if not self.pch:
            if rc != 0:
                raise WeftccError("", rc)
            return
        output = self.log_path.read_text(errors="replace")
        if rc != 0:
            # Stale (a system header changed) or a PCH clang cannot merge with this source
            # (C++20's ODR checks on the prelude's operator new, for one): the prelude as
            # text decides. Its diagnostics are the ones shown; if it compiles, this PCH is
            # marked unusable so later runs skip it.
            failed_pch, stale = self.pch, pch.is_stale_pch_error(output)
            self.pch = None
            self.start()
            try:
                self.finish()
            except WeftccError:
                if stale:
                    pch.discard(failed_pch, unusable=False)  # rebuilt next time
                raise
            pch.discard(failed_pch, unusable=not stale)
            return
        if output:
            sys.stderr.write(output)
            sys.stderr.flush()
        if rc != 0:
            raise WeftccError("", rc)

    def run(self) -> None:
        self.start()
        self.finish()


class _Kept:
    def __init__(self, path):
        self.path = path

    def __enter__(self):
        return self.path

    def __exit__(self, *exc):
        return False


class _Removed:
    def __init__(self, tmp):
        self.tmp = tmp

    def __enter__(self):
        return pathlib.Path(self.tmp.name)

    def __exit__(self, *exc):
        self.tmp.cleanup()
        return False


USAGE = """usage: weftcc [options] file...
  Compiles HIP sources (.hip .cu .cpp, or -x hip) into programs whose kernels run on
  every agent weft drives: the CPU (x86_64), NVIDIA GPUs (sm_XY), AMD GPUs (gfxNNN).
  -c, -o FILE, -O*, -g, -I DIR, -D NAME[=V], -U NAME, -std=STD, -fPIC, -shared,
  -l LIB, -L DIR, -Wl,..., -x hip|c++|c|none, -MD/-MF (dependency files),
  --offload-arch=T[,T...] (repeatable; default: x86_64 plus this machine's GPUs,
      or $WEFTCC_OFFLOAD_ARCH), --no-offload-arch=all (host code only),
  --genco (device image(s) only: one target -> its image, several -> a bundle),
  --list-images FILE... (the images in a program, library, object or bundle),
  -E, -M, -MM, -save-temps, -parallel-jobs=N, -v, --version.
  See docs/weftcc.md."""


def version_text(paths: Paths, tools: Toolchain) -> str:
    lines = [f"weftcc (weft {paths.weft_version}) HIP compiler driver",
             f"HIP version: {paths.weft_version}",
             f"weft include: {paths.weft_include}", f"weft library: {paths.weft_libdir}"]
    if tools.clang:
        try:
            out = subprocess.run([tools.clang, "--version"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True).stdout
            lines.append("clang: " + (out.splitlines() or ["?"])[0])
        except OSError:
            pass
    return "\n".join(lines)


def main(argv: list, paths: Paths) -> int:
    try:
        opts = cli.parse(argv)
    except cli.UsageError as e:
        log(f"weftcc: error: {e}")
        return 1
    tools = Toolchain.find()
    if opts.mode == "help":
        print(USAGE)
        return 0
    if opts.mode == "version":
        print(version_text(paths, tools))
        return 0
    if opts.mode == "print-targets":
        # CMake's HIP language runs `COMPILER -v -print-targets` and reads the HIP
        # installation (where lib/cmake/hip-lang lives) from this line, as clang writes it.
        if opts.verbose:
            log(f"Found HIP installation: {paths.weft_include.parent}, version {paths.weft_version}")
        return subprocess.run([tools.clang or "clang-15", "-print-targets"]).returncode
    if opts.mode == "list":
        status = 0
        for x in opts.inputs:
            try:
                if len(opts.inputs) > 1:
                    print(f"{x.path}:")
                print(bundle.list_images(pathlib.Path(x.path)))
            except (OSError, bundle.BundleError) as e:
                log(f"weftcc: error: {x.path}: {e}")
                status = 1
        return status
    try:
        Driver(opts, paths, tools).run()
    except KeyboardInterrupt:
        return 130
    except cli.UsageError as e:
        log(f"weftcc: error: {e}")
        return 1
    except WeftccError as e:
        if str(e):
            log(str(e))
        return e.code
    return 0
