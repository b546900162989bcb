#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""weftcc's tests, one group per meson test:
  weftcc_test.py GROUP BUILD_DIR SOURCE_DIR
GROUP: cli (command line, bad input, targets.py, default targets, --list-images),
pipeline (device step -> bundle -> host pass -> link -> run on the CPU agent, with the
g++ stand-in x86_64 module), cpu_image (the same with weft's own x86_64 module and
headers), gpu (NVIDIA and AMD images), cmake (a CMake project built with weftcc).
A check that cannot run here prints `SKIPPED: <reason>`; a group where nothing could run
exits 77 (meson's skip)."""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

GROUP, BUILD, SOURCE = sys.argv[1], pathlib.Path(sys.argv[2]).resolve(), pathlib.Path(sys.argv[3]).resolve()
WEFTCC = BUILD / "tools" / "weftcc" / "weftcc"
HERE = SOURCE / "tests" / "weftcc"
DATA = HERE / "data"
LIB = SOURCE / "tools" / "weftcc"
sys.path.insert(0, str(LIB))
from weftcc_lib import bundle, detect, nvidia_image, targets  # noqa: E402

GXX_MODULE = [sys.executable, str(HERE / "run_with_module.py"), "cpu_image", str(HERE / "gxx_cpu_target.py"),
              str(WEFTCC)]


def env_without_override(**extra):
    env = dict(os.environ)
    env.pop(detect.ENV_OVERRIDE, None)
    env.update(extra)
    return env


def commands_with(out, flag):
    """How many of the commands weftcc -v printed (not clang's own -v lines) pass `flag`."""
    return sum(1 for line in out.splitlines() if line.startswith("/") and f" {flag} " in line)


def run(cmd, cwd=None, env=None, expect=0):
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env or env_without_override(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    if expect is not None and proc.returncode != expect:
        raise AssertionError(f"{' '.join(map(str, cmd))}\n exited {proc.returncode}, expected {expect}:\n{proc.stdout}")
    return proc


def has_module(name):
    return (LIB / "weftcc_lib" / f"{name}.py").is_file()


class Scratch(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="weftcc-test-")
        self.tmp = pathlib.Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, text):
        path = self.tmp / name
        path.write_text(text)
        return path


# ---------------------------------------------------------------------------
class Cli(Scratch):
    def test_version(self):
        out = run([WEFTCC, "--version"]).stdout
        self.assertRegex(out, r"weftcc \(weft \d+\.\d+\.\d+\)")
        self.assertIn("HIP version:", out)
        self.assertIn(str(SOURCE / "include"), out)  # the build-tree copy uses the tree's headers
        self.assertIn(str(BUILD / "src"), out)

    def test_help(self):
        self.assertIn("--offload-arch", run([WEFTCC, "--help"]).stdout)

    def test_no_input(self):
        self.assertIn("no input files", run([WEFTCC, "-c"], expect=1).stdout)

    def test_missing_file(self):
        out = run([WEFTCC, "-c", self.tmp / "nowhere.hip"], expect=1).stdout
        self.assertIn("nowhere.hip: no such file", out)

    def test_unknown_arch_lists_known(self):
        src = self.write("k.hip", "int x;\n")
        out = run([WEFTCC, "--offload-arch=gfx90a,sm_99x", "-c", src], expect=1).stdout
        self.assertIn("unknown offload arch 'sm_99x'", out)
        for known in ("x86_64", "sm_80", "sm_90", "gfx90a", "gfx1100", "xnack"):
            self.assertIn(known, out)
        self.assertNotIn("'gfx90a'", out)  # only the unknown one is named as unknown
        out = run([WEFTCC, "--offload-arch=gfx90a:xnack*", "-c", src], expect=1).stdout
        self.assertIn("unknown offload arch 'gfx90a:xnack*'", out)

    def test_unknown_arch_from_environment(self):
        src = self.write("k.hip", "int x;\n")
        out = run([WEFTCC, "-c", src], env=env_without_override(WEFTCC_OFFLOAD_ARCH="x86_64,gfx4242"),
                  expect=1).stdout
        self.assertIn("'gfx4242' (from WEFTCC_OFFLOAD_ARCH)", out)

    def test_refused_options(self):
        src = self.write("k.hip", "int x;\n")
        self.assertIn("-fgpu-rdc (relocatable device code) is not supported yet",
                      run([WEFTCC, "-fgpu-rdc", "-c", src], expect=1).stdout)
        self.assertIn("-S", run([WEFTCC, "-S", src], expect=1).stdout)
        self.assertIn("unknown language", run([WEFTCC, "-x", "fortran", src], expect=1).stdout)
        self.assertIn("-o with -c takes one source file",
                      run([WEFTCC, "-c", src, src, "-o", self.tmp / "x.o"], expect=1).stdout)
        self.assertIn("--genco takes exactly one HIP source file",
                      run([WEFTCC, "--genco", src, src], expect=1).stdout)
        self.assertIn("choose one of", run([WEFTCC, "--genco", "-E", src], expect=1).stdout)

    def test_host_only_compile_passes_each_option(self):
        inc = self.tmp / "inc"
        inc.mkdir()
        (inc / "answer.h").write_text("#define ANSWER 42\n")
        src = self.write("k.hip", '#include "answer.h"\n#if __cplusplus < 202002L\n#error "not C++20"\n#endif\n'
                         '#ifndef FROM_D\n#error "no -D"\n#endif\n#ifdef GONE\n#error "no -U"\n#endif\n'
                         'int answer() { return ANSWER + FROM_D; }\n')
        obj = self.tmp / "k.o"
        out = run([WEFTCC, "-v", "--no-offload-arch=all", "-c", src, "-o", obj, f"-I{inc}", "-DFROM_D=1",
                   "-DGONE", "-UGONE", "-std=c++20", "-O2", "-g", "-fPIC", "-Wall"]).stdout
        host = next(line for line in out.splitlines() if "--cuda-host-only" in line and f"-o {obj}" in line)
        for flag in ("-x hip", "-nogpuinc", "-nogpulib", f"-I{inc}", "-DFROM_D=1", "-UGONE", "-std=c++20",
                     "-O2", "-g", "-fPIC", "-Wall", f"-isystem {SOURCE / 'include'}", f"-o {obj}"):
            self.assertIn(flag, host)
        self.assertTrue(obj.is_file())
        nm = run(["nm", obj]).stdout
        self.assertIn("_Z6answerv", nm)

    def test_precompiled_prelude(self):
        src = self.write("k.hip", "#include <hip/hip_runtime.h>\n__global__ void k(int* p) { p[0] = 1; }\n"
                         "int host_side() { return 7; }\n")
        cache = self.tmp / "cache"
        env = env_without_override(WEFTCC_CACHE=str(cache))
        cmd = [WEFTCC, "-v", "--no-offload-arch=all", "-O1", "-c", src, "-o", self.tmp / "k.o"]
        first = run(cmd, env=env).stdout
        self.assertIn("-emit-pch", first)
        pchs = list(cache.glob("prelude-*.pch"))
        self.assertEqual(len(pchs), 1)
        second = run(cmd, env=env).stdout
        self.assertNotIn("-emit-pch", second)
        self.assertIn(f"-include-pch {pchs[0]}", second)
        self.assertIn("_Z9host_sidev", run(["nm", self.tmp / "k.o"]).stdout)
        # A PCH clang rejects: the pass reruns with the prelude as text and the PCH goes.
        pchs[0].write_bytes(b"not a precompiled header")
        run(cmd, env=env)
        self.assertFalse(pchs[0].exists())
        self.assertEqual(list(cache.glob("*.unusable")), [])
        # A real compile error is reported once, from the text prelude's run.
        bad = self.write("bad.hip", "int f() { return no_such_name; }\n")
        out = run([WEFTCC, "--no-offload-arch=all", "-O1", "-c", bad, "-o", self.tmp / "bad.o"], env=env, expect=1).stdout
        self.assertEqual(out.count("use of undeclared identifier 'no_such_name'"), 1)
        off = run(cmd, env=env_without_override(WEFTCC_CACHE=str(cache), WEFTCC_PCH="0")).stdout
        self.assertNotIn("-include-pch", off)
        self.assertIn("-include hip/weft/device/prelude.h", off)

    def test_precompiled_prelude_for_cxx20(self):
        # clang-15's C++20 modules merge host and device overloads of one signature when
        # reading a PCH (the prelude's placement new, clang's own operator new/delete):
        # C++20 PCHs are built and read with -fno-cxx-modules (gpu_pch.CXX20_PCH_FLAGS),
        # and <string> after the PCH compiles; nothing is marked unusable.
        src = self.write("k.hip", "#include <hip/hip_runtime.h>\n#include <string>\n#include <vector>\n"
                         "__global__ void k(int* p) { p[0] = 1; }\nstd::string host_name() { return \"k\"; }\n"
                         "std::vector<unsigned char> bytes() { return std::vector<unsigned char>(3); }\n")
        cache = self.tmp / "cache"
        for _ in range(2):
            out = run([WEFTCC, "-v", "--offload-arch=x86_64", "-std=c++20", "-c", src, "-o", self.tmp / "k.o"],
                      env=env_without_override(WEFTCC_CACHE=str(cache))).stdout
            self.assertEqual(commands_with(out, "-include-pch"), 3, out)  # host pass, discovery, image
            self.assertEqual(commands_with(out, "-fno-cxx-modules"), 3 + out.count("-emit-pch"), out)
            self.assertNotIn("-include hip/weft/device/prelude.h", out)
            self.assertIn("host_name", run(["nm", self.tmp / "k.o"]).stdout)
        self.assertNotIn("-emit-pch", out)  # the second run reuses both
        self.assertEqual(list(cache.glob("*.unusable")), [])
        self.assertEqual(len(list(cache.glob("*.pch"))), 2)

    def test_precompiled_first_header(self):
        # The PCH covers the source's first header too (a test's "hip_test.hpp"): one PCH
        # serves every source that starts with it; an edit of it builds a new one; a header
        # next to the source is included by its absolute path; a header without an include
        # guard still compiles (the pass with the PCH fails, the text pass decides).
        inc = self.tmp / "inc"
        inc.mkdir()
        (inc / "common.h").write_text("#pragma once\n#include <hip/hip_runtime.h>\n#include <vector>\n"
                                      "#define COMMON_VALUE 5\n")
        a = self.write("a.hip", '#include "common.h"\n__global__ void ka(int* p) { p[0] = COMMON_VALUE; }\n'
                       "int main() { std::vector<int> v(1); return v[0]; }\n")
        b = self.write("b.hip", '// b\n#include "common.h"\n#include <string>\n'
                       "__global__ void kb(int* p) { p[0] = COMMON_VALUE + 1; }\n")
        cache = self.tmp / "cache"
        env = env_without_override(WEFTCC_CACHE=str(cache))

        def compile_(src, *extra):
            return run([WEFTCC, "-v", "--offload-arch=x86_64", f"-I{inc}", "-std=c++20", *extra, "-c", src, "-o",
                        self.tmp / (src.stem + ".o")], env=env).stdout

        first = compile_(a)
        self.assertEqual(first.count("-emit-pch"), 2, first)
        second = compile_(b)
        self.assertNotIn("-emit-pch", second)
        self.assertEqual(commands_with(second, "-include-pch"), 3, second)
        self.assertIn("_Z2kbPi", run(["nm", self.tmp / "b.o"]).stdout)
        self.assertEqual(len(list(cache.glob("*.pch"))), 2)
        (inc / "common.h").write_text("#pragma once\n#include <hip/hip_runtime.h>\n#include <vector>\n"
                                      "#define COMMON_VALUE 6\n")
        self.assertEqual(compile_(b).count("-emit-pch"), 2)
        # Beside the source: its absolute path in the stub (another key).
        (self.tmp / "common.h").write_text("#pragma once\n#include <hip/hip_runtime.h>\n#include <vector>\n"
                                           "#define COMMON_VALUE 7\n")
        compile_(a)
        stubs = "".join(p.read_text() for p in cache.glob("*-stub-*.hip"))
        self.assertIn(f'#include "{(self.tmp / "common.h").resolve()}"', stubs)
        (self.tmp / "common.h").unlink()
        # No include guard: the PCH pass fails, the text pass compiles, the key goes unusable.
        (inc / "twice.h").write_text("#include <hip/hip_runtime.h>\nstruct Twice { int v; };\n")
        c = self.write("c.hip", '#include "twice.h"\n__global__ void kc(Twice* p) { p->v = 1; }\n')
        out = compile_(c)
        self.assertIn("_Z2kcP5Twice", run(["nm", self.tmp / "c.o"]).stdout, out)

    def test_preprocess_and_dependency_files(self):
        src = self.write("k.hip", '#include "dep.h"\nint v = VALUE;\n')
        self.write("dep.h", "#define VALUE 1234\n")
        out = run([WEFTCC, "-E", "-DX=1", src], cwd=self.tmp).stdout
        self.assertIn("int v = 1234;", out)
        self.assertIn("dep.h", run([WEFTCC, "-M", src], cwd=self.tmp).stdout)
        obj, dep = self.tmp / "k.o", self.tmp / "k.d"
        run([WEFTCC, "--no-offload-arch=all", "-MD", "-MT", "k.o", "-MF", dep, "-c", src, "-o", obj], cwd=self.tmp)
        self.assertIn("dep.h", dep.read_text())

    def test_host_pass_sees_no_amd_or_clang_hip_headers(self):
        src = self.write("k.hip", "#include <hip/hip_runtime.h>\n__global__ void k(int* p) { p[threadIdx.x] = 1; }\n")
        proc = run([WEFTCC, "-M", src], expect=None)
        if proc.returncode != 0:
            if "#error" in proc.stdout or "error:" in proc.stdout:
                first = next((line for line in proc.stdout.splitlines() if "error:" in line), "")
                print("SKIPPED: weft's headers do not compile under clang's HIP mode yet:", first)
                return
        deps = proc.stdout
        self.assertIn(str(SOURCE / "include" / "hip" / "hip_runtime.h"), deps)
        for leak in ("/usr/include/hip/", "__clang_hip_", "cuda_wrappers", "/opt/rocm"):
            self.assertNotIn(leak, deps)

    def test_targets_interface(self):
        self.assertEqual(targets.bundle_entry_id("x86_64"), "hipv4-x86_64-unknown-linux-gnu-x86_64")
        self.assertEqual(targets.bundle_entry_id("sm_90"), "hipv4-nvptx64-nvidia-cuda--sm_90")
        self.assertEqual(targets.bundle_entry_id("gfx90a:xnack-"), "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-")
        self.assertEqual(targets.bundle_entry_id("gfx90a:sramecc+:xnack-"),
                         "hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-")
        for bad in ("gfx90a:xnack", "gfx90a:xnack+:xnack-", "gfx90a:foo+", "sm_8", "x86", "", "gfx"):
            self.assertIsNone(targets.target_kind(bad), bad)
        with self.assertRaises(ValueError):
            targets.module_for("gfx4242")
        job = targets.Job(source=self.tmp / "k.hip", target="x86_64", lang_std="c++17", defines=[], undefines=[],
                          include_dirs=[], opt="-O2", debug=False, extra_flags=[], workdir=self.tmp, clang="clang-15",
                          weft_include=SOURCE / "include", weft_libdir=BUILD / "src")
        with self.assertRaises(targets.TargetError) as caught:
            targets._NotBuiltYet("cpu_image").build(job)
        self.assertEqual(caught.exception.target, "x86_64")
        self.assertIn("not built yet", str(caught.exception))
        with self.assertRaises(targets.TargetError) as caught:
            job.run(["sh", "-c", "echo diagnostic-text; exit 3"], "device compile")
        self.assertIn("device compile failed (exit 3)", caught.exception.message)
        self.assertIn("diagnostic-text", caught.exception.diagnostics)

    def test_flags_each_pass_gets(self):
        from weftcc_lib import cli, driver
        flags = ["-march=native", "-mavx2", "-mno-sse4", "-mcode-object-version=5", "-Wall", "-ffast-math"]
        self.assertEqual(driver.device_flags(flags, "x86_64"), flags)
        self.assertEqual(driver.device_flags(flags, "gfx90a"), ["-mcode-object-version=5", "-Wall", "-ffast-math"])
        self.assertEqual(driver.device_flags(flags, "sm_90"), ["-mcode-object-version=5", "-Wall", "-ffast-math"])
        o = cli.parse(["-c", "k.hip", "-pthread", "-fsanitize=address", "-fPIC", "-Wl,--as-needed", "-lm", "-L", "/x",
                       "-MD", "-MF", "k.d", "-include", "pre.h", "--offload-arch=gfx90a,sm_90", "--offload-arch=x86_64",
                       "-xhip", "b.cu"])
        self.assertEqual(o.compile_flags, ["-fPIC", "-include", "pre.h"])
        self.assertEqual(o.host_compile_flags, ["-pthread", "-fsanitize=address"])
        self.assertEqual(o.link_flags, ["-pthread", "-fsanitize=address", "-Wl,--as-needed", "-lm", "-L/x"])
        self.assertEqual(o.host_only_flags, ["-MD", "-MF", "k.d"])
        self.assertEqual(o.archs, ["gfx90a", "sm_90", "x86_64"])
        self.assertEqual([(x.path, x.lang) for x in o.inputs], [("k.hip", "hip"), ("b.cu", "hip")])
        o = cli.parse(["a.c", "-x", "c++", "b.hip", "-x", "none", "c.o", "d.cpp", "libe.a"])
        self.assertEqual([x.lang for x in o.inputs], ["c", "c++", "link", "hip", "link"])

    def test_default_targets(self):
        found, origin = detect.default_targets({"WEFTCC_OFFLOAD_ARCH": " x86_64, sm_80 ;gfx90a "})
        self.assertEqual((found, origin), (["x86_64", "sm_80", "gfx90a"], "WEFTCC_OFFLOAD_ARCH"))
        found, _ = detect.default_targets({})
        self.assertEqual(found[0], "x86_64")
        nodes = self.tmp / "nodes"
        for n, version in enumerate((0, 90010, 110000, 100300, 90008)):
            (nodes / str(n)).mkdir(parents=True)
            (nodes / str(n) / "properties").write_text(f"cpu_cores_count 0\ngfx_target_version {version}\n")
        self.assertEqual(detect.amd_targets(str(nodes)), ["gfx90a", "gfx1100", "gfx1030", "gfx908"])
        src = self.write("k.hip", "int x;\n")
        out = run([WEFTCC, "-v", "-E", src], env=env_without_override(WEFTCC_OFFLOAD_ARCH="x86_64")).stdout
        self.assertNotIn("targets from", out)  # -E runs no device step
        proc = run([WEFTCC, "-v", "-c", src, "-o", self.tmp / "k.o"],
                   env=env_without_override(WEFTCC_OFFLOAD_ARCH="x86_64"), expect=None)
        self.assertIn("weftcc: targets from WEFTCC_OFFLOAD_ARCH: x86_64", proc.stdout)

    def test_list_images(self):
        for name, text in (("a.bin", "first image"), ("b.bin", "second")):
            self.write(name, text)
        fatbin = self.tmp / "t.hipfb"
        bundler = shutil.which("clang-offload-bundler-15")
        if not bundler:
            print("SKIPPED: clang-offload-bundler-15 not installed (Debian package clang-tools-15)")
            return
        bundle.make_bundle(bundler, [(targets.HOST_ENTRY_ID, None),
                                     ("hipv4-x86_64-unknown-linux-gnu-x86_64", self.tmp / "a.bin"),
                                     ("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", self.tmp / "b.bin")],
                           fatbin, lambda cmd: run(cmd))
        out = run([WEFTCC, "--list-images", fatbin]).stdout
        self.assertRegex(out, r"host-x86_64-unknown-linux-gnu +0 bytes  empty")
        self.assertRegex(out, r"hipv4-x86_64-unknown-linux-gnu-x86_64 +11 bytes")
        self.assertRegex(out, r"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack- +6 bytes")
        plain = self.write("plain.txt", "nothing here")
        self.assertIn("not a clang offload bundle", run([WEFTCC, "--list-images", plain], expect=1).stdout)
        obj = self.tmp / "k.o"
        run([WEFTCC, "--no-offload-arch=all", "-c", self.write("k.hip", "int x;\n"), "-o", obj])
        self.assertIn("has no .hip_fatbin section", run([WEFTCC, "--list-images", obj], expect=1).stdout)
        self.assertIn("no such file", run([WEFTCC, "--list-images", self.tmp / "gone"], expect=1).stdout.lower())

    def test_hipcc_object_listed(self):
        hipcc = shutil.which("hipcc")
        if not hipcc:
            print("SKIPPED: hipcc not installed")
            return
        src = self.write("h.hip", "#include <hip/hip_runtime.h>\n__global__ void k(int* p) { p[0] = 1; }\n")
        proc = run([hipcc, "--offload-arch=gfx90a", "-c", src, "-o", self.tmp / "h.o"], expect=None)
        if proc.returncode != 0:
            print("SKIPPED: hipcc cannot compile for gfx90a here:", proc.stdout[-300:])
            return
        out = run([WEFTCC, "--list-images", self.tmp / "h.o"]).stdout
        self.assertRegex(out, r"hipv4-amdgcn-amd-amdhsa--gfx90a +\d+ bytes  ELF shared object, AMDGPU")


# ---------------------------------------------------------------------------
class Pipeline(Scratch):
    """weftcc with tests/weftcc/gxx_cpu_target.py as its x86_64 module."""

    def weftcc(self, *args, expect=0):
        return run([*GXX_MODULE, "--offload-arch=x86_64", *args], cwd=self.tmp, expect=expect)

    def test_program_runs_on_cpu_agent(self):
        out = self.weftcc("-v", "-DFILL_VALUE=11", "-O2", DATA / "fill.hip", "-o", "fill").stdout
        device = next(line for line in out.splitlines() if line.startswith("g++") and "WEFTCC_TEST_CPU_OBJECT" in line)
        self.assertIn("-DFILL_VALUE=11", device)
        self.assertIn("-O2", device)
        bundler = next(line for line in out.splitlines() if "clang-offload-bundler" in line)
        self.assertIn("-targets=host-x86_64-unknown-linux-gnu,hipv4-x86_64-unknown-linux-gnu-x86_64", bundler)
        self.assertIn("fill ok", run([self.tmp / "fill"]).stdout)
        entries = bundle.read_entries(self.tmp / "fill")
        self.assertEqual([e for e, _ in entries], ["host-x86_64-unknown-linux-gnu", "hipv4-x86_64-unknown-linux-gnu-x86_64"])
        self.assertTrue(entries[1][1].startswith(b"\x7fELF"))
        nm = run(["nm", self.tmp / "fill"]).stdout
        for symbol in ("__hip_module_ctor", "__hipRegisterFatBinary"):
            self.assertIn(symbol, nm)

    def test_failing_target_is_named(self):
        out = self.weftcc("-c", DATA / "fill.hip", "-o", "fill.o", expect=1).stdout
        self.assertIn("[target x86_64] g++ (test CPU image) failed", out)
        self.assertIn("the test compiles with -DFILL_VALUE", out)  # the compiler's diagnostics follow
        self.assertFalse((self.tmp / "fill.o").exists())

    def test_objects_and_shared_library(self):
        self.weftcc("-fPIC", "-shared", DATA / "scale_lib.hip", "-o", "libscale.so")
        self.weftcc("-c", DATA / "offset.hip", "-o", "offset.o")
        self.assertEqual([e for e, _ in bundle.read_entries(self.tmp / "libscale.so")],
                         ["host-x86_64-unknown-linux-gnu", "hipv4-x86_64-unknown-linux-gnu-x86_64"])
        self.weftcc(DATA / "scale_main.cpp", "offset.o", "-L.", "-lscale", f"-Wl,-rpath,{self.tmp}", "-o", "main")
        self.assertIn("scale+offset ok", run([self.tmp / "main"]).stdout)
        # The same three translation units compiled and linked by one command.
        self.weftcc(DATA / "scale_main.cpp", DATA / "offset.hip", DATA / "scale_lib.hip", "-o", "main2")
        self.assertIn("scale+offset ok", run([self.tmp / "main2"]).stdout)
        self.assertEqual(len(bundle.read_entries(self.tmp / "main2")), 4)  # two kernel objects, two entries each

    def test_genco_image_loads_with_hipModuleLoad(self):
        self.weftcc("--genco", "-DFILL_VALUE=0", DATA / "fill.hip", "-o", "fill.co")
        image = (self.tmp / "fill.co").read_bytes()
        self.assertTrue(image.startswith(b"\x7fELF"))
        loader = self.write("load.cpp", r'''
#include <hip/hip_runtime.h>
#include <cstdio>
int main(int, char** argv) {
  hipModule_t module;
  if (hipModuleLoad(&module, argv[1]) != hipSuccess) return 2;
  hipFunction_t f;
  if (hipModuleGetFunction(&f, module, "_Z4fillPiii") != hipSuccess) return 3;
  int* d = nullptr;
  const int n = 300;
  if (hipMalloc(&d, n * sizeof(int)) != hipSuccess) return 4;
  int value = 100;
  int count = n;
  void* args[] = {&d, &value, &count};
  if (hipModuleLaunchKernel(f, 3, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr) != hipSuccess) return 5;
  int h[n];
  if (hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost) != hipSuccess) return 6;
  for (int i = 0; i < n; ++i) if (h[i] != 100 + i) { std::printf("h[%d]=%d\n", i, h[i]); return 1; }
  (void)hipFree(d);
  (void)hipModuleUnload(module);
  std::puts("module ok");
}
''')
        run(["g++", "-std=c++17", loader, f"-I{SOURCE / 'include'}", f"-L{BUILD / 'src'}", "-lamdhip64",
             f"-Wl,-rpath,{BUILD / 'src'}", "-o", self.tmp / "load"])
        self.assertIn("module ok", run([self.tmp / "load", self.tmp / "fill.co"]).stdout)


# ---------------------------------------------------------------------------
CPU_PROGRAM = r'''
#include <hip/hip_runtime.h>
#include <cstdio>

__device__ int device_counter;
__constant__ float bias[2] = {0.25f, 0.5f};

template <typename T>
__global__ void block_sum(const T* in, T* out, int n) {
  extern __shared__ unsigned char raw[];
  T* partial = reinterpret_cast<T*>(raw);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) { out[blockIdx.x] = partial[0] + T(bias[0] * 4); atomicAdd(&device_counter, 1); }
}

int main() {
  const int n = 4096, block = 256, blocks = n / block;
  float* in; float* out;
  HIP_CHECK_OR_RETURN(hipMallocManaged(&in, n * sizeof(float)));
  HIP_CHECK_OR_RETURN(hipMallocManaged(&out, blocks * sizeof(float)));
  for (int i = 0; i < n; ++i) in[i] = float(i % 7);
  int zero = 0;
  HIP_CHECK_OR_RETURN(hipMemcpyToSymbol(HIP_SYMBOL(device_counter), &zero, sizeof zero));
  block_sum<float><<<blocks, block, block * sizeof(float)>>>(in, out, n);
  hipLaunchKernelGGL(block_sum<float>, dim3(blocks), dim3(block), block * sizeof(float), 0, in, out, n);
  HIP_CHECK_OR_RETURN(hipDeviceSynchronize());
  int counter = 0;
  HIP_CHECK_OR_RETURN(hipMemcpyFromSymbol(&counter, HIP_SYMBOL(device_counter), sizeof counter));
  for (int b = 0; b < blocks; ++b) {
    float expect = 1.0f;
    for (int i = b * block; i < (b + 1) * block; ++i) expect += float(i % 7);
    if (out[b] != expect) { std::printf("block %d: %g, expected %g\n", b, out[b], expect); return 1; }
  }
  if (counter != 2 * blocks) { std::printf("counter %d\n", counter); return 1; }
  std::puts("block_sum ok");
  return 0;
}
'''


class CpuImage(Scratch):
    """weft's own x86_64 module (weftcc_lib/cpu_image.py) and headers."""

    def test_program_runs_on_cpu_agent(self):
        src = self.write("sum.hip", "#define HIP_CHECK_OR_RETURN(x) do { if ((x) != hipSuccess) return 2; } while (0)\n"
                         + CPU_PROGRAM)
        run([WEFTCC, "--offload-arch=x86_64", "-O2", src, "-o", self.tmp / "sum"])
        self.assertEqual([e for e, _ in bundle.read_entries(self.tmp / "sum")],
                         ["host-x86_64-unknown-linux-gnu", "hipv4-x86_64-unknown-linux-gnu-x86_64"])
        self.assertIn("block_sum ok", run([self.tmp / "sum"], env=env_without_override(HIP_VISIBLE_DEVICES="")).stdout)

    def test_no_device_code(self):
        # A unit without kernels or device variables: its device step stops after
        # discovery, and the object carries no bundle (clang registers nothing).
        plain = self.write("plain.hip", "#include <hip/hip_runtime.h>\nint host_only() { return 3; }\n")
        out = run([WEFTCC, "-v", "--offload-arch=x86_64", "-c", plain, "-o", self.tmp / "plain.o"]).stdout
        self.assertIn("has no device code", out)
        self.assertFalse(bundle.has_section(self.tmp / "plain.o", bundle.SECTION))
        self.assertNotIn("cpu_image.hip", out)  # no wrapper compile
        # A device variable alone is device code: an image with it.
        var = self.write("var.hip", "#include <hip/hip_runtime.h>\n__device__ int counter;\n")
        out = run([WEFTCC, "-v", "--offload-arch=x86_64", "-c", var, "-o", self.tmp / "var.o"]).stdout
        self.assertNotIn("has no device code", out)
        self.assertEqual([e for e, _ in bundle.read_entries(self.tmp / "var.o")],
                         ["host-x86_64-unknown-linux-gnu", "hipv4-x86_64-unknown-linux-gnu-x86_64"])
        # A module that claims "no device code" where the host pass registers kernels:
        # weftcc builds the image after all, and the program runs.
        src = self.write("sum.hip", "#define HIP_CHECK_OR_RETURN(x) do { if ((x) != hipSuccess) return 2; } while (0)\n"
                         + CPU_PROGRAM)
        claims = [sys.executable, str(HERE / "run_with_module.py"), "cpu_image", str(HERE / "claims_no_device_code.py"),
                  str(WEFTCC)]
        out = run([*claims, "-v", "--offload-arch=x86_64", "-O2", src, "-o", self.tmp / "sum"]).stdout
        self.assertIn("the host pass registers device code; building x86_64", out)
        self.assertIn("block_sum ok", run([self.tmp / "sum"], env=env_without_override(HIP_VISIBLE_DEVICES="")).stdout)

    def test_shared_library_and_objects(self):
        lib = self.write("lib.hip", "#include <hip/hip_runtime.h>\n"
                         "__global__ void twice(int* p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
                         " if (i < n) p[i] *= 2; }\n"
                         "hipError_t launch_twice(int* p, int n) { twice<<<(n + 63) / 64, 64>>>(p, n);"
                         " return hipGetLastError(); }\n")
        plus = self.write("plus.hip", "#include <hip/hip_runtime.h>\n"
                          "template <int K> __global__ void plus(int* p, int n) { int i = blockIdx.x * blockDim.x"
                          " + threadIdx.x; if (i < n) p[i] += K; }\n"
                          "hipError_t launch_plus(int* p, int n) { hipLaunchKernelGGL(plus<3>, dim3((n + 31) / 32),"
                          " dim3(32), 0, 0, p, n); return hipGetLastError(); }\n")
        main = self.write("main.cpp", "#include <hip/hip_runtime.h>\n#include <cstdio>\n"
                          "hipError_t launch_twice(int*, int); hipError_t launch_plus(int*, int);\n"
                          "int main() { const int n = 1000; int* p; if (hipMallocManaged(&p, n * sizeof(int))) return 2;\n"
                          "  for (int i = 0; i < n; ++i) p[i] = i;\n"
                          "  if (launch_twice(p, n) || launch_plus(p, n) || hipDeviceSynchronize()) return 3;\n"
                          "  for (int i = 0; i < n; ++i) if (p[i] != 2 * i + 3) { std::printf(\"p[%d]=%d\\n\", i, p[i]); return 1; }\n"
                          "  std::puts(\"shared ok\"); return 0; }\n")
        arch = "--offload-arch=x86_64"
        run([WEFTCC, arch, "-O2", "-fPIC", "-shared", lib, "-o", self.tmp / "libtwice.so"])
        run([WEFTCC, arch, "-O2", "-c", plus, "-o", self.tmp / "plus.o"])
        run([WEFTCC, arch, "-O2", main, self.tmp / "plus.o", f"-L{self.tmp}", "-ltwice", f"-Wl,-rpath,{self.tmp}",
             "-o", self.tmp / "main"])
        self.assertIn("shared ok", run([self.tmp / "main"], env=env_without_override(HIP_VISIBLE_DEVICES="")).stdout)

    # -- the x86_64 step's precompiled headers (weftcc_lib/cpu_pch.py) --------------

    PCH_SOURCE = "#include <hip/hip_runtime.h>\n__global__ void fill(int* p, int v) { p[threadIdx.x] = v; }\n"

    def genco_x86(self, src, cache, *extra, weftcc=WEFTCC, out="k.co", expect=0):
        return run([weftcc, "-v", "--offload-arch=x86_64", "--genco", *extra, src, "-o", self.tmp / out],
                   env=env_without_override(WEFTCC_CACHE=str(cache)), expect=expect).stdout

    def assert_no_temporaries(self, cache):
        self.assertEqual([p.name for p in cache.iterdir() if p.name.startswith(".")], [])

    def test_x86_64_precompiled_headers(self):
        src = self.write("k.hip", self.PCH_SOURCE)
        cache = self.tmp / "cache"
        first = self.genco_x86(src, cache)
        pchs = list(cache.glob("cpu-*.pch"))
        self.assertEqual(len(pchs), 1, first)
        self.assertEqual(first.count("-emit-pch"), 1, first)
        self.assertEqual(first.count(f"-include-pch {pchs[0]}"), 2, first)  # discovery and the image
        self.assertIn("_Z4fillPii", run(["nm", self.tmp / "k.co"]).stdout)
        second = self.genco_x86(src, cache)
        self.assertNotIn("-emit-pch", second)
        self.assertEqual(second.count(f"-include-pch {pchs[0]}"), 2, second)
        self.assertIn("(reused)", second)
        self.assertNotIn("-include hip/weft/device/prelude.h", second)
        self.assertIn("_Z4fillPii", run(["nm", self.tmp / "k.co"]).stdout)
        # A damaged PCH: clang calls it unusable as a PCH, weftcc builds it again and
        # marks nothing unusable.
        pchs[0].write_bytes(b"not a precompiled header")
        third = self.genco_x86(src, cache)
        self.assertEqual(third.count("-emit-pch"), 1, third)
        self.assertIn("is stale; building it again", third)
        self.assertEqual(list(cache.glob("*.unusable")), [])
        self.assertNotIn("-emit-pch", self.genco_x86(src, cache))
        # The stub the PCH was built from is gone: the manifest notices, weftcc rebuilds.
        for stub in cache.glob("cpu-stub-*.hip"):
            stub.unlink()
        self.assertEqual(self.genco_x86(src, cache).count("-emit-pch"), 1)
        self.assert_no_temporaries(cache)
        # WEFTCC_PCH=0: the headers as text.
        for extra, env, why in (([], {"WEFTCC_PCH": "0"}, "WEFTCC_PCH=0"),):
            out = run([WEFTCC, "-v", "--offload-arch=x86_64", "--genco", *extra, src, "-o", self.tmp / "t.co"],
                      env=env_without_override(WEFTCC_CACHE=str(cache), **env)).stdout
            self.assertIn(why, out)
            self.assertNotIn("-include-pch", out)
            self.assertEqual(out.count("-include hip/weft/device/prelude.h"), 2, out)

    def copied_weftcc(self):
        """An unconfigured weftcc with its own copy of weft's headers (a tree under tmp)."""
        root = self.tmp / "tree"
        shutil.copytree(SOURCE / "include", root / "include")
        shutil.copytree(LIB / "weftcc_lib", root / "tools" / "weftcc" / "weftcc_lib",
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy2(LIB / "weftcc", root / "tools" / "weftcc" / "weftcc")
        return root, root / "tools" / "weftcc" / "weftcc"

    def test_x86_64_precompiled_headers_after_a_header_change(self):
        root, weftcc = self.copied_weftcc()
        prelude = root / "include" / "hip" / "weft" / "device" / "prelude.h"
        original = prelude.read_text()
        src = self.write("k.hip", "#include <hip/hip_runtime.h>\n#if WEFTCC_TEST_MARK == 1\n"
                         "__global__ void one(int* p) { *p = 1; }\n#else\n__global__ void two(int* p) { *p = 2; }\n"
                         "#endif\n")
        cache = self.tmp / "cache"

        def edit(mark, when):
            prelude.write_text(original + f"\n#define WEFTCC_TEST_MARK {mark}\n")
            os.utime(prelude, ns=(when, when))

        edit(1, 1_000_000_000_000_000_000)
        self.assertEqual(self.genco_x86(src, cache, weftcc=weftcc).count("-emit-pch"), 1)
        self.assertIn("_Z3onePi", run(["nm", self.tmp / "k.co"]).stdout)
        # Same size, another mtime and other contents (a header weft's -isystem makes a
        # system header, which clang itself does not check): the manifest notices.
        edit(2, 1_000_000_002_000_000_000)
        out = self.genco_x86(src, cache, weftcc=weftcc)
        self.assertEqual(out.count("-emit-pch"), 1, out)
        nm = run(["nm", self.tmp / "k.co"]).stdout
        self.assertIn("_Z3twoPi", nm)
        self.assertNotIn("_Z3onePi", nm)
        self.assertEqual(len(list(cache.glob("cpu-*.pch"))), 1)
        # Touched, contents unchanged: the same PCH still serves.
        os.utime(prelude, ns=(1_000_000_004_000_000_000,) * 2)
        out = self.genco_x86(src, cache, weftcc=weftcc)
        self.assertNotIn("-emit-pch", out)
        self.assertEqual(out.count("-include-pch"), 2, out)
        self.assertIn("_Z3twoPi", run(["nm", self.tmp / "k.co"]).stdout)

    def test_x86_64_precompiled_headers_concurrent_compiles(self):
        src = self.write("k.hip", self.PCH_SOURCE)
        cache = self.tmp / "cache"
        env = env_without_override(WEFTCC_CACHE=str(cache))
        procs = [subprocess.Popen([str(WEFTCC), "-v", "--offload-arch=x86_64", "--genco", str(src), "-o",
                                   str(self.tmp / f"k{i}.co")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, env=env) for i in range(4)]
        outs = [p.communicate()[0] for p in procs]
        for p, out in zip(procs, outs):
            self.assertEqual(p.returncode, 0, out)
            self.assertEqual(out.count("-include-pch"), 2, out)
        # One process builds it (under the lock); the others wait and use it.
        self.assertEqual(sum(out.count("-emit-pch") for out in outs), 1, "\n".join(outs))
        self.assertEqual(len(list(cache.glob("cpu-*.pch"))), 1)
        self.assert_no_temporaries(cache)

    def test_x86_64_precompiled_headers_read_only_cache(self):
        src = self.write("k.hip", self.PCH_SOURCE)
        cache = self.tmp / "cache"
        self.genco_x86(src, cache)
        cache.chmod(0o555)
        try:  # a PCH already there is used from a cache weftcc cannot write
            out = self.genco_x86(src, cache)
        finally:
            cache.chmod(0o755)
        self.assertNotIn("-emit-pch", out)
        self.assertEqual(out.count("-include-pch"), 2, out)
        # No PCH and no cache weftcc can write: the passes include the headers as text.
        # (root writes to any folder whatever its mode: there the cache's parent is a file,
        # and /proc/self is a folder nobody can create files in.)
        places = [self.write("a-file", "") / "cache", pathlib.Path("/proc/self")]
        if os.geteuid() != 0:
            read_only = self.tmp / "read-only"
            read_only.mkdir(mode=0o555)
            places += [read_only, read_only / "cache"]
        for place in places:
            out = self.genco_x86(src, place)
            self.assertIn("no precompiled header (cache", out)
            self.assertNotIn("-include-pch", out)
            self.assertEqual(out.count("-include hip/weft/device/prelude.h"), 2, out)
            self.assertIn("_Z4fillPii", run(["nm", self.tmp / "k.co"]).stdout)

    def test_construct_the_cpu_target_cannot_compile(self):
        # Inline PTX assembly in a kernel: only the NVIDIA target can take it.
        src = self.write("asm.hip", "#include <hip/hip_runtime.h>\n"
                         "__global__ void k(unsigned* p) { unsigned v; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(v)); p[0] = v; }\n")
        out = run([WEFTCC, "--offload-arch=x86_64", "-c", src, "-o", self.tmp / "asm.o"], expect=1).stdout
        self.assertIn("[target x86_64]", out)


# ---------------------------------------------------------------------------
GPU_TARGETS = {"nvidia_image": "sm_80", "amd_image": "gfx90a"}


class Gpu(Scratch):
    def genco(self, module, target):
        if not has_module(module):
            self.skipTest(f"weftcc_lib/{module}.py is not there yet")
        src = self.write("k.hip", "#include <hip/hip_runtime.h>\n"
                         "__global__ void scale(float* p, float s, int n) {\n"
                         "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= s; }\n")
        proc = run([WEFTCC, f"--offload-arch={target}", "--genco", src, "-o", self.tmp / f"k-{target}.co"], expect=None)
        if proc.returncode != 0:
            if "not found" in proc.stdout or "not installed" in proc.stdout:
                self.skipTest(f"{target} toolchain missing: {proc.stdout.strip().splitlines()[0]}")
            self.fail(proc.stdout)
        return (self.tmp / f"k-{target}.co").read_bytes()

    def test_nvidia_image(self):
        image = self.genco("nvidia_image", "sm_80")
        self.assertTrue(image.startswith(b"\x7fELF") or b".entry _Z5scalePffi" in image, image[:200])

    def test_one_binary_for_every_agent(self):
        """One program with an image per target; it runs on device 0 (the GPU where there
        is one: run this on the H200) and, with the GPUs hidden, on the CPU agent."""
        if not has_module("cpu_image"):
            self.skipTest("weftcc_lib/cpu_image.py is not there yet")
        nvidia = (detect.nvidia_targets() or ["sm_80"])[0]
        chosen = ["x86_64"]
        for module, target in (("nvidia_image", nvidia), ("amd_image", "gfx90a")):
            if not has_module(module):
                print(f"SKIPPED (partly): {target}: weftcc_lib/{module}.py is not there yet")
                continue
            probe = run([WEFTCC, f"--offload-arch={target}", "--genco", DATA / "probe.hip", "-o", self.tmp / "p.co"],
                        expect=None)
            if probe.returncode != 0:
                print(f"SKIPPED (partly): {target}: {probe.stdout.strip().splitlines()[0]}")
                continue
            chosen.append(target)
        src = self.write("sum.hip", "#define HIP_CHECK_OR_RETURN(x) do { if ((x) != hipSuccess) return 2; } while (0)\n"
                         + CPU_PROGRAM)
        run([WEFTCC, f"--offload-arch={','.join(chosen)}", "-O2", src, "-o", self.tmp / "sum"])
        self.assertEqual([e for e, _ in bundle.read_entries(self.tmp / "sum")],
                         [targets.HOST_ENTRY_ID] + [targets.bundle_entry_id(t) for t in chosen])
        out = run([self.tmp / "sum"]).stdout
        self.assertIn("block_sum ok", out)  # on device 0, whichever agent that is
        out = run([self.tmp / "sum"], env=env_without_override(HIP_VISIBLE_DEVICES="")).stdout
        self.assertIn("block_sum ok", out)
        print("built for", ", ".join(chosen), "and ran on device 0 and on the CPU agent")

    def test_runs_against_amds_library(self):
        """weftcc's objects linked against AMD's libamdhip64 5.2 instead of weft's: with no
        AMD GPU here, the first HIP call fails cleanly (the program returns 2), no crash."""
        amd = pathlib.Path("/usr/lib/x86_64-linux-gnu/libamdhip64.so.5")
        if not amd.exists():
            self.skipTest("AMD's libamdhip64.so.5 is not installed (Debian package libamdhip64-5)")
        if not has_module("cpu_image") or not has_module("amd_image"):
            self.skipTest("needs weftcc_lib/cpu_image.py and amd_image.py")
        src = self.write("sum.hip", "#define HIP_CHECK_OR_RETURN(x) do { if ((x) != hipSuccess) return 2; } while (0)\n"
                         + CPU_PROGRAM)
        proc = run([WEFTCC, "--offload-arch=x86_64,gfx90a", "-O2", "-c", src, "-o", self.tmp / "sum.o"], expect=None)
        if proc.returncode != 0 and "not installed" in proc.stdout:
            self.skipTest(proc.stdout.strip().splitlines()[0])
        self.assertEqual(proc.returncode, 0, proc.stdout)
        run(["g++", self.tmp / "sum.o", amd, "-o", self.tmp / "sum_amd"])
        self.assertEqual(run([self.tmp / "sum_amd"], expect=None).returncode, 2)

    def test_nvidia_textures(self):
        """Every texture and surface form becomes its PTX instruction in the sm_* image, and
        texture references become 64-bit globals the kernels load the texture object from."""
        if not has_module("nvidia_image"):
            self.skipTest("weftcc_lib/nvidia_image.py is not there yet")
        proc = run([WEFTCC, "--offload-arch=sm_90", "--genco", "-save-temps", DATA / "textures.hip",
                    "-o", self.tmp / "tex.co"], cwd=self.tmp, expect=None)
        if proc.returncode != 0:
            if "not found" in proc.stdout or "not installed" in proc.stdout:
                self.skipTest(f"sm_90 toolchain missing: {proc.stdout.strip().splitlines()[0]}")
            self.fail(proc.stdout)
        kept = re.search(r"keeping temporary files of \S+ in (\S+)", proc.stdout)
        self.assertIsNotNone(kept, proc.stdout)
        work = pathlib.Path(kept.group(1))
        self.addCleanup(shutil.rmtree, work, True)
        ptx = next(work.rglob("*.ptx")).read_text()
        # (tex1D, tex1DLod and tex1DGrad use the 2D instructions at y = 0.5: nvptx_texture.h)
        for instruction in ("tex.1d.v4.f32.s32", "tex.2d.v4.f32.f32",
                            "tex.2d.v4.s32.f32", "tex.2d.v4.u32.f32", "tex.3d.v4.f32.f32",
                            "tex.a1d.v4.f32.f32", "tex.a2d.v4.f32.f32", "tex.cube.v4.f32.f32",
                            "tex.acube.v4.f32.f32", "tex.level.2d", "tex.level.3d",
                            "tex.level.a1d", "tex.level.a2d", "tex.level.cube", "tex.grad.2d",
                            "tex.grad.3d", "tex.grad.a1d", "tex.grad.a2d",
                            "suld.b.1d.b8.zero", "suld.b.2d.b16.clamp", "suld.b.3d.b32.trap",
                            "suld.b.a1d.v2.b32.zero", "suld.b.a2d.v4.b32.zero", "sust.b.1d.b8.zero",
                            "sust.b.2d.b16.trap", "sust.b.3d.b32.clamp", "sust.b.a1d.v2.b32.zero",
                            "sust.b.a2d.v4.b32.zero"):
            self.assertIn(instruction, ptx)
        self.assertNotIn(".texref", ptx)
        for name in ("g_ref_linear", "g_ref_bytes", "g_ref_2d"):
            self.assertIn(f".visible .global .align 8 .u64 {name};", ptx)
            self.assertRegex(ptx, rf"ld\.global\.u64 %rd\d+, \[{name}\];")
        if nvidia_image.find_cuda_tool("ptxas"):
            self.assertTrue(list(work.rglob("*.cubin")), "ptxas made no cubin")  # ptxas took the PTX
        else:
            print("SKIPPED (partly): no ptxas, the PTX was not assembled")

    def test_texture_reference_rewrite(self):
        """The PTX step refuses what it cannot give a texture object to (no toolchain needed)."""
        ptx = ".visible .global .texref t;\n.entry k()\n{\n\tmov.u64 \t%rd2, t;\n\tret;\n}\n"
        out = nvidia_image.texture_references_as_objects(ptx)
        self.assertIn(".visible .global .align 8 .u64 t;", out)
        self.assertIn("ld.global.u64 %rd2, [t];", out)
        self.assertNotIn("mov.u64", out)
        with self.assertRaisesRegex(ValueError, "surfref"):
            nvidia_image.texture_references_as_objects(".global .surfref s;\n")
        with self.assertRaisesRegex(ValueError, "texture reference t is used"):
            nvidia_image.texture_references_as_objects(
                ".global .texref t;\n\ttex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [t, {%r1}];\n")

    def test_amd_textures_unsupported(self):
        """A texture fetch in a gfx* image stops the build, naming the target and the reason."""
        if not has_module("amd_image"):
            self.skipTest("weftcc_lib/amd_image.py is not there yet")
        probe = run([WEFTCC, "--offload-arch=gfx90a", "--genco", DATA / "probe.hip", "-o", self.tmp / "p.co"],
                    expect=None)
        if probe.returncode != 0:
            self.skipTest(f"gfx90a toolchain missing: {probe.stdout.strip().splitlines()[0]}")
        out = run([WEFTCC, "--offload-arch=gfx90a", "--genco", DATA / "textures.hip", "-o", self.tmp / "t.co"],
                  expect=1).stdout
        self.assertIn("[target gfx90a]", out)
        self.assertIn("is not supported for AMD GPU targets", out)

    def test_amd_image(self):
        image = self.genco("amd_image", "gfx90a")
        self.assertTrue(image.startswith(b"\x7fELF"))
        self.assertIn(b"_Z5scalePffi", image)


# ---------------------------------------------------------------------------
# Release without -DNDEBUG for now: the x86_64 device layer does not compile under NDEBUG
# yet (WEFTCC-plan.md, 02:24); drop this once it does.
RELEASE_FLAGS = ["-DCMAKE_CXX_FLAGS_RELEASE=-O2", "-DCMAKE_HIP_FLAGS_RELEASE=-O2"]


class Cmake(Scratch):
    def test_cmake_project(self):
        cmake = shutil.which("cmake")
        if not cmake:
            self.skipTest("cmake not installed")
        root = self.tmp / "root"
        run(["meson", "install", "-C", BUILD, "--no-rebuild", "--quiet", "--destdir", root])
        prefix = next(root.glob("**/bin/weftcc")).parent.parent
        real = has_module("cpu_image")
        if real:
            compiler, sources = prefix / "bin" / "weftcc", "cpu"
        else:
            # Until weft's x86_64 module exists, the project builds the self-declared test
            # sources with the g++ stand-in module (a wrapper named weftcc, so that
            # hip-config.cmake recognises it).
            print("SKIPPED (partly): weftcc_lib/cpu_image.py is not there yet; building with the g++ stand-in module")
            compiler = self.tmp / "wrap" / "weftcc"
            compiler.parent.mkdir()
            compiler.write_text("#!/bin/sh\nexec " + " ".join([sys.executable, str(HERE / "run_with_module.py"),
                                "cpu_image", str(HERE / "gxx_cpu_target.py"), str(prefix / "bin" / "weftcc")])
                                + ' "$@"\n')
            compiler.chmod(0o755)
            sources = "declared"
        if real:
            self.write("sum.hip", "#define HIP_CHECK_OR_RETURN(x) do { if ((x) != hipSuccess) return 2; } while (0)\n"
                       + CPU_PROGRAM)
        build = self.tmp / "build"
        run([cmake, "-S", HERE / "cmake_project", "-B", build, f"-DCMAKE_PREFIX_PATH={prefix}",
             f"-DCMAKE_CXX_COMPILER={compiler}", "-DGPU_TARGETS=x86_64", f"-DWEFTCC_TEST_SOURCES={sources}",
             f"-DWEFTCC_TEST_DATA={DATA}", f"-DWEFTCC_TEST_CPU_SOURCE={self.tmp / 'sum.hip'}",
             "-DCMAKE_BUILD_TYPE=Release", *RELEASE_FLAGS])
        out = run([cmake, "--build", build, "--verbose"]).stdout
        self.assertIn("--offload-arch=x86_64", out)  # from hip::device and GPU_TARGETS
        program = build / "weftcc_cmake_program"
        self.assertEqual([e for e, _ in bundle.read_entries(program)][:2],
                         ["host-x86_64-unknown-linux-gnu", "hipv4-x86_64-unknown-linux-gnu-x86_64"])
        self.assertIn("block_sum ok" if real else "scale+offset ok", run([program]).stdout)
        if not real:
            print("SKIPPED (partly): CMake's HIP language needs weftcc_lib/cpu_image.py (its compiler-ID "
                  "source must see __HIP__ in the device step)")
            return
        # CMake's HIP language: CMAKE_HIP_COMPILER=weftcc, lib/cmake/hip-lang from weft.
        build = self.tmp / "build-hip"
        run([cmake, "-S", HERE / "cmake_hip_language", "-B", build, f"-DCMAKE_HIP_COMPILER={compiler}",
             "-DCMAKE_HIP_ARCHITECTURES=x86_64", f"-DWEFTCC_TEST_CPU_SOURCE={self.tmp / 'sum.hip'}",
             "-DCMAKE_BUILD_TYPE=Release", *RELEASE_FLAGS])
        out = run([cmake, "--build", build, "--verbose"]).stdout
        self.assertIn("--offload-arch=x86_64", out)
        self.assertIn("block_sum ok", run([build / "weftcc_cmake_program"]).stdout)


GROUPS = {"cli": Cli, "pipeline": Pipeline, "cpu_image": CpuImage, "gpu": Gpu, "cmake": Cmake}

if __name__ == "__main__":
    if GROUP == "cpu_image" and not has_module("cpu_image"):
        print("SKIPPED: weftcc_lib/cpu_image.py (weft's x86_64 device step) is not there yet")
        sys.exit(77)
    if GROUP in ("pipeline", "cpu_image", "cmake") and not (BUILD / "src" / "libamdhip64.so").exists():
        print("SKIPPED: libamdhip64 is not built")
        sys.exit(77)
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(GROUPS[GROUP])
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
    if not result.wasSuccessful():
        sys.exit(1)
    if result.testsRun and len(result.skipped) == result.testsRun:
        for _, reason in result.skipped:
            print("SKIPPED:", reason)
        sys.exit(77)
