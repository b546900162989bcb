# SPDX-License-Identifier: MIT
"""weftcc's command line: hipcc's options (docs/weftcc.md lists them)."""
from __future__ import annotations

import dataclasses
import os
import pathlib


class UsageError(Exception):
    pass


HIP_SUFFIXES = (".hip", ".cu", ".cpp", ".cc", ".cxx", ".c++", ".cp", ".C", ".hip.cpp")
C_SUFFIXES = (".c",)
LANGS = {"hip": "hip", "cu": "hip", "cuda": "hip", "c++": "c++", "c": "c", "none": None}

# Options that are linker business only, kept out of compile commands.
LINK_ONLY_PREFIXES = ("-Wl,", "-l", "-L", "-fuse-ld=", "-static", "-nostdlib", "-nodefaultlibs",
                      "-nostartfiles")
LINK_ONLY = ("-rdynamic", "-pie", "-no-pie", "-s", "-shared-libgcc", "-static-libgcc",
             "-static-libstdc++")
# Options both the compile steps and the link need.
BOTH = ("-pthread", "-fopenmp")
# Options with a separate argument that go to the host compile only (dependency files).
DEP_WITH_ARG = ("-MF", "-MT", "-MQ")
DEP_FLAGS = ("-MD", "-MMD", "-MP")


@dataclasses.dataclass
class Input:
    path: str
    lang: str  # "hip" (device steps + host pass), "c++"/"c" (host only), "link" (object, archive, library)


@dataclasses.dataclass
class Options:
    mode: str = "link"            # link | compile | genco | preprocess | deps | version | list | help
    inputs: list = dataclasses.field(default_factory=list)
    output: str = ""
    archs: list = dataclasses.field(default_factory=list)   # [] = the default targets
    no_arch: bool = False         # --no-offload-arch=all: host only
    opt: str = ""                 # "" = not given
    debug: bool = False
    lang_std: str = ""
    defines: list = dataclasses.field(default_factory=list)
    undefines: list = dataclasses.field(default_factory=list)
    include_dirs: list = dataclasses.field(default_factory=list)
    compile_flags: list = dataclasses.field(default_factory=list)  # host and device, in order
    host_compile_flags: list = dataclasses.field(default_factory=list)  # host compile only (-pthread, -fsanitize=...)
    host_only_flags: list = dataclasses.field(default_factory=list)  # -MD -MF f ...
    link_flags: list = dataclasses.field(default_factory=list)
    shared: bool = False
    verbose: bool = False
    save_temps: bool = False
    rdc: bool = False
    jobs: int = 0                 # parallel device steps (0: one per core)


def _take(argv, i, opt):
    """The value of an option written as `-Xvalue` or `-X value`."""
    arg = argv[i]
    if len(arg) > len(opt):
        return arg[len(opt):].lstrip("=") if opt.startswith("--") else arg[len(opt):], i
    if i + 1 >= len(argv):
        raise UsageError(f"{opt} needs a value")
    return argv[i + 1], i + 1


def _lang_of(path: str, forced) -> str:
    if forced:
        return forced
    name = os.path.basename(path)
    if name.endswith(HIP_SUFFIXES):
        return "hip"
    if name.endswith(C_SUFFIXES):
        return "c"
    return "link"


def _add_archs(opts: Options, value: str) -> None:
    for arch in value.split(","):
        arch = arch.strip()
        if not arch:
            continue
        if arch not in opts.archs:  # "native" stays: the driver expands it to this machine's agents
            opts.archs.append(arch)


def parse(argv: list) -> Options:
    opts = Options()
    forced_lang = None
    modes = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--version":
            modes.append("version")
        elif arg in ("--help", "-h"):
            modes.append("help")
        elif arg == "--list-images":
            modes.append("list")
        elif arg == "-c":
            modes.append("compile")
        elif arg == "--genco":
            modes.append("genco")
        elif arg == "-E":
            modes.append("preprocess")
        elif arg in ("-M", "-MM"):
            modes.append("deps")
            opts.host_only_flags.append(arg)
        elif arg == "-S":
            raise UsageError("-S (assembly output) is not supported; use --genco for a device image")
        elif arg == "-o" or (arg.startswith("-o") and len(arg) > 2):
            opts.output, i = _take(argv, i, "-o")
        elif arg == "-x" or (arg.startswith("-x") and arg[2:] in LANGS):
            value, i = _take(argv, i, "-x")
            if value not in LANGS:
                raise UsageError(f"-x {value}: unknown language (weftcc knows hip, cu, c++, c, none)")
            forced_lang = LANGS[value]
        elif arg.startswith(("--offload-arch=", "--cuda-gpu-arch=", "--amdgpu-target=", "-offload-arch=")):
            _add_archs(opts, arg.split("=", 1)[1])
        elif arg in ("--offload-arch", "--cuda-gpu-arch", "--amdgpu-target"):
            value, i = _take(argv, i, arg)
            _add_archs(opts, value)
        elif arg == "--no-offload-arch=all":
            opts.no_arch = True
        elif arg.startswith("-O"):
            opts.opt = arg if arg != "-O" else "-O1"
        elif arg == "-g" or (arg.startswith("-g") and arg[2:] in ("1", "2", "3", "gdb", "dwarf-4", "dwarf-5")):
            opts.debug = True
        elif arg == "-g0":
            opts.debug = False
        elif arg == "-I" or arg.startswith("-I"):
            value, i = _take(argv, i, "-I")
            opts.include_dirs.append(os.path.abspath(value))
        elif arg == "-D" or arg.startswith("-D"):
            value, i = _take(argv, i, "-D")
            opts.defines.append(value)
        elif arg == "-U" or arg.startswith("-U"):
            value, i = _take(argv, i, "-U")
            opts.undefines.append(value)
        elif arg.startswith("-std="):
            opts.lang_std = arg[len("-std="):]
        elif arg in ("-include", "-isystem", "-iquote", "-idirafter"):
            value, i = _take(argv, i, arg)
            if arg != "-include":
                value = os.path.abspath(value)
            opts.compile_flags += [arg, value]
        elif arg in DEP_WITH_ARG:
            value, i = _take(argv, i, arg)
            opts.host_only_flags += [arg, value]
        elif arg in DEP_FLAGS or arg.startswith(DEP_WITH_ARG):
            opts.host_only_flags.append(arg)
        elif arg in ("-fgpu-rdc", "--hip-link"):
            if arg == "-fgpu-rdc":
                opts.rdc = True
        elif arg == "-fno-gpu-rdc":
            opts.rdc = False
        elif arg == "-shared":
            opts.shared = True
            opts.link_flags.append(arg)
        elif arg in ("-v", "--verbose"):
            opts.verbose = True
        elif arg in ("-save-temps", "--save-temps"):
            opts.save_temps = True
        elif arg.startswith("-parallel-jobs=") or arg.startswith("-j"):
            value = arg.split("=", 1)[1] if "=" in arg else arg[2:]
            if not value.isdigit() or int(value) < 1:
                raise UsageError(f"{arg}: the number of jobs must be a positive integer")
            opts.jobs = int(value)
        elif arg == "-Xlinker":
            value, i = _take(argv, i, arg)
            opts.link_flags += [arg, value]
        elif arg in ("-l", "-L"):
            value, i = _take(argv, i, arg)
            opts.link_flags.append(arg + value)
        elif arg.startswith(LINK_ONLY_PREFIXES) or arg in LINK_ONLY:
            opts.link_flags.append(arg)
        elif arg in BOTH:
            opts.host_compile_flags.append(arg)
            opts.link_flags.append(arg)
        elif arg.startswith(("-fPIC", "-fpic", "-fPIE", "-fpie", "-fno-pic", "-fno-PIC")):
            opts.compile_flags.append(arg)
        elif arg.startswith("-fsanitize") or arg.startswith("-fno-sanitize") or arg == "-fprofile-arcs" \
                or arg == "--coverage":
            # Instrumentation of the host side; device images are built without it (as
            # hipcc does without -fgpu-sanitize).
            opts.host_compile_flags.append(arg)
            opts.link_flags.append(arg)
        elif arg.startswith("-"):
            # Any other option (-W..., -f..., -m..., -w) is a compile flag, as hipcc passes it
            # on to clang.
            opts.compile_flags.append(arg)
        else:
            if "list" in modes:
                opts.inputs.append(Input(arg, "link"))
            else:
                opts.inputs.append(Input(arg, _lang_of(arg, forced_lang)))
        i += 1

    exclusive = [m for m in dict.fromkeys(modes) if m in ("version", "help", "list", "genco", "preprocess", "deps")]
    if "version" in modes or "help" in modes:
        opts.mode = "version" if "version" in modes else "help"
        return opts
    if len(exclusive) > 1:
        raise UsageError("choose one of " + ", ".join(exclusive))
    if exclusive:
        opts.mode = exclusive[0]
    elif "compile" in modes:
        opts.mode = "compile"
    if not opts.inputs:
        raise UsageError("no input files")
    if opts.rdc:
        raise UsageError("-fgpu-rdc (relocatable device code) is not supported yet; "
                         "compile each translation unit with its own kernels (the default, -fno-gpu-rdc)")
    if opts.mode == "compile":
        sources = [x for x in opts.inputs if x.lang != "link"]
        if opts.output and len(sources) > 1:
            raise UsageError("-o with -c takes one source file")
        if not sources:
            raise UsageError("-c needs a source file (.hip, .cu, .cpp, .c)")
    if opts.mode == "genco":
        sources = [x for x in opts.inputs if x.lang == "hip"]
        if len(sources) != 1 or len(opts.inputs) != 1:
            raise UsageError("--genco takes exactly one HIP source file")
    return opts


def check_inputs(opts: Options) -> None:
    for x in opts.inputs:
        if x.lang == "link" and x.path.startswith("-"):
            continue
        if not pathlib.Path(x.path).is_file():
            raise UsageError(f"{x.path}: no such file")
