#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Generates the libamdhip64 version script, weak stubs and expected export list from exports.txt.
"""Turn src/api/exports.txt into build inputs for libamdhip64.

Outputs (each optional):
  --map FILE       GNU ld version script: one block per node, each inheriting the
                   previous one; `local: *;` only in the first block.
  --stubs FILE     C source defining every symbol as a weak, default-visibility
                   function that reports itself once through weft_log_unsupported()
                   and returns the "not supported" value of its kind. Strong
                   definitions elsewhere in the library replace them at link time.
  --expected FILE  Sorted `name@@node` lines, what `nm -D --with-symbol-versions`
                   must show for the built library.

Standard library only, so the build needs nothing beyond python3.
"""

import argparse
import re
import sys
from dataclasses import dataclass

# hipErrorNotSupported in every HIP release.
NOT_SUPPORTED = 801

# Stub kinds: (C return type, return statement). `builtin` symbols have real bodies below.
KINDS = {
    "err": ("int", f"return {NOT_SUPPORTED};"),
    "ptr": ("void*", "return NULL;"),
    "str": ("const char*", 'return "";'),
    "void": ("void", None),
    "int": ("int", "return -1;"),
    "size": ("size_t", "return 0;"),
    "channel_desc": ("struct WeftChannelDesc", "return (struct WeftChannelDesc){0, 0, 0, 0, 0};"),
    "builtin": (None, None),
    # Defined for real in the C++ sources (always), so no stub is generated.
    "real": (None, None),
}

# Real definitions for `builtin` symbols: IEEE half <-> float conversions that
# compiler-rt-less hosts resolve from libamdhip64 (AMD exports them weak in hip_4.2).
BUILTINS = {
    "__gnu_h2f_ieee": """\
float __gnu_h2f_ieee(unsigned short h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1fu) return bits_to_float(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0) return bits_to_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  /* Zero or subnormal: mantissa * 2^-24 is exact in float. */
  float magnitude = (float)mantissa * (1.0f / 16777216.0f);
  return bits_to_float(sign | float_to_bits(magnitude));
}""",
    "__gnu_f2h_ieee": """\
unsigned short __gnu_f2h_ieee(float f) {
  uint32_t bits = float_to_bits(f);
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) /* NaN: keep it quiet and keep the top payload bits */
    return (unsigned short)(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu));
  if (magnitude >= 0x477ff000u) /* >= 65520 rounds to infinity (also catches inf) */
    return (unsigned short)(sign | 0x7c00u);
  if (magnitude >= 0x38800000u) { /* normal half: round mantissa to nearest even */
    uint32_t odd = (magnitude >> 13) & 1u;
    magnitude += 0xfffu + odd;
    return (unsigned short)(sign | ((magnitude - 0x38000000u) >> 13));
  }
  /* Subnormal half: adding 0.5f rounds (to nearest even) at 2^-24, the half subnormal step. */
  float rounded = bits_to_float(magnitude) + 0.5f;
  return (unsigned short)(sign | (float_to_bits(rounded) - 0x3f000000u));
}""",
}

SYMBOL_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
NODE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


@dataclass
class Export:
    name: str
    node: str
    kind: str


STANDALONE = set()


def parse(path):
    """Returns (nodes in order, exports in file order); exits with file:line on any error."""
    nodes, exports, seen = [], [], {}
    errors = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            where = f"{path}:{number}"
            fields = line.split()
            if fields[0] == "%node":
                # `%node NAME standalone`: a node with no parent and no link to the
                # chain (interposed glibc symbols keep glibc's version name).
                if len(fields) == 3 and fields[2] == "standalone" and NODE_RE.match(fields[1]):
                    STANDALONE.add(fields[1])
                    fields = fields[:2]
                if len(fields) != 2 or not NODE_RE.match(fields[1]):
                    errors.append(f"{where}: expected `%node <name>`")
                elif fields[1] in nodes:
                    errors.append(f"{where}: node {fields[1]} opened twice")
                else:
                    nodes.append(fields[1])
                continue
            if len(fields) != 3:
                errors.append(f"{where}: expected `<symbol> <node> <kind>`")
                continue
            name, node, kind = fields
            if not SYMBOL_RE.match(name):
                errors.append(f"{where}: {name!r} is not a C identifier")
            if not nodes or node != nodes[-1]:
                errors.append(f"{where}: {name} names node {node}, but the open node is "
                              f"{nodes[-1] if nodes else 'none'}")
            if kind not in KINDS:
                errors.append(f"{where}: unknown kind {kind!r} (one of {', '.join(KINDS)})")
            if kind == "builtin" and name not in BUILTINS:
                errors.append(f"{where}: {name} is `builtin` but gen_exports.py has no body for it")
            if name in seen:
                errors.append(f"{where}: {name} already listed at line {seen[name]}")
            seen[name] = number
            exports.append(Export(name, node, kind))
    for node in nodes:
        if not any(e.node == node for e in exports):
            errors.append(f"{path}: node {node} is empty")
    if errors:
        sys.exit("\n".join(errors))
    return nodes, exports


def version_script(nodes, exports):
    out = ["/* Generated by tools/gen_exports.py from src/api/exports.txt; do not edit. */"]
    chain = [n for n in nodes if n not in STANDALONE]
    for node in nodes:
        out.append(f"{node} {{")
        out.append("global:")
        out.extend(f"    {e.name};" for e in exports if e.node == node)
        if node in STANDALONE:
            out.append("};")
        elif chain.index(node) == 0:
            out.append("local:")
            out.append("    *;")
            out.append("};")
        else:
            out.append(f"}} {chain[chain.index(node) - 1]};")
        out.append("")
    return "\n".join(out)


STUBS_PROLOGUE = """\
// SPDX-License-Identifier: MIT
// Generated by tools/gen_exports.py from src/api/exports.txt; do not edit.
//
// A weak, default-visibility definition of every exported symbol, so libamdhip64
// always exports AMD's full list. A strong definition anywhere else in the library
// (e.g. a C++ `extern "C"` entry point) replaces the stub at link time. Stubs take
// no parameters: under the x86-64 SysV ABI the caller's arguments are simply
// ignored. No HIP header is included; the declarations here would not match it.
//
// Each stub reports itself once through weft_log_unsupported(), which the runtime
// defines (hidden), and returns its kind's "not supported" value.

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WEFT_STUB __attribute__((weak, visibility("default")))

__attribute__((visibility("hidden"))) void weft_log_unsupported(const char* name);

// Same layout as hipChannelFormatDesc: int x, y, z, w and an int-sized enum.
struct WeftChannelDesc {
  int x, y, z, w, f;
};

static void report_once(int* reported, const char* name) {
  if (!__atomic_exchange_n(reported, 1, __ATOMIC_RELAXED)) weft_log_unsupported(name);
}
"""

# Helpers of the `builtin` bodies; emitted only when one is used (-Wunused-function).
BUILTIN_HELPERS = """\
static uint32_t float_to_bits(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

static float bits_to_float(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}
"""


def stub(e):
    if e.kind == "real":
        return f"// {e.name}: defined in the C++ sources"
    if e.kind == "builtin":
        body = BUILTINS[e.name]
        signature = body.split(" {", 1)[0]
        return f"WEFT_STUB {signature};\n{body}"
    ctype, ret = KINDS[e.kind]
    lines = [
        f"WEFT_STUB {ctype} {e.name}(void);",
        f"{ctype} {e.name}(void) {{",
        "  static int reported;",
        f'  report_once(&reported, "{e.name}");',
    ]
    if ret:
        lines.append(f"  {ret}")
    lines.append("}")
    return "\n".join(lines)


def stubs_source(nodes, exports):
    out = [STUBS_PROLOGUE]
    if any(e.kind == "builtin" for e in exports):
        out.append(BUILTIN_HELPERS)
    for node in nodes:
        out.append(f"// ---- {node} ----\n")
        for e in exports:
            if e.node == node:
                out.append(stub(e) + "\n")
    out.append(proc_table(exports))
    return "\n".join(out)


PROC_TABLE_PROLOGUE = """\
// ---- hipGetProcAddress ----
// Every exported hip* function by name, sorted by strcmp, with the HIP version of
// its symbol-version node (hip_5.1 is 501): src/api/proc_address.cpp looks names up
// here. Generated from the same list as the exports, so it cannot drift from them.
// The addresses are the final definitions: the stubs above where weft has none.
struct WeftProcEntry {
  const char* name;
  void (*address)(void);
  int version;
};
"""


def node_version(node):
    match = re.match(r"^hip_(\d+)\.(\d+)$", node)
    return int(match.group(1)) * 100 + int(match.group(2)) if match else 0


def proc_table(exports):
    entries = sorted((e for e in exports if e.name.startswith("hip") and e.kind not in ("real", "builtin")),
                     key=lambda e: e.name.encode())
    out = [PROC_TABLE_PROLOGUE,
           "__attribute__((visibility(\"hidden\"))) const struct WeftProcEntry weft_proc_table[] = {"]
    out.extend(f'    {{"{e.name}", (void (*)(void)){e.name}, {node_version(e.node)}}},' for e in entries)
    out.append("};")
    out.append("__attribute__((visibility(\"hidden\"))) const size_t weft_proc_table_size =")
    out.append("    sizeof weft_proc_table / sizeof weft_proc_table[0];")
    return "\n".join(out) + "\n"


def expected_list(exports):
    return "".join(f"{line}\n" for line in sorted(f"{e.name}@@{e.node}" for e in exports))


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exports", help="src/api/exports.txt")
    parser.add_argument("--map", help="write the GNU ld version script here")
    parser.add_argument("--stubs", help="write the weak stub C source here")
    parser.add_argument("--expected", help="write the sorted name@@node list here")
    args = parser.parse_args()
    nodes, exports = parse(args.exports)
    if args.map:
        write(args.map, version_script(nodes, exports))
    if args.stubs:
        write(args.stubs, stubs_source(nodes, exports))
    if args.expected:
        write(args.expected, expected_list(exports))


if __name__ == "__main__":
    main()
