#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Adds CPU code objects to a hipcc program's offload bundle ("one binary for every agent").

  weft_bundle.py list FILE
      Lists the bundle entries of FILE: an object file or executable (its .hip_fatbin
      section), a raw bundle, or a compressed (CCOB) bundle.
  weft_bundle.py add-cpu OBJECT CPU_SO [-o OUT] [--target x86_64]
      Adds CPU_SO (a CPU code object built with <hip/weft/cpu_code_object.h>) to the
      .hip_fatbin of OBJECT, an object file made by `hipcc -c`, as the entry
      hipv4-x86_64-unknown-linux-gnu-x86_64 (replacing an earlier one). Link OUT as
      usual (hipcc OUT -o program): weft's CPU agent then runs the kernels.

Works on relocatable objects (hipcc -c), where the section may grow; a linked
executable's loaded sections cannot. Needs binutils' objcopy. Compressed bundles
are read when zlib-compressed; the rewritten bundle is written uncompressed.
Entry IDs and layouts: docs/code-objects.md.
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import zlib

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
CCOB = b"CCOB"
SECTION = ".hip_fatbin"
ALIGN = 4096


def fail(message):
    sys.exit("weft_bundle: " + message)


def decompress(data):
    version, method = struct.unpack_from("<HH", data, 4)
    header = {1: 20, 2: 24, 3: 32}.get(version)
    if header is None:
        fail("compressed bundle version %d is not supported" % version)
    if version == 2:
        end = struct.unpack_from("<I", data, 8)[0]
    elif version == 3:
        end = struct.unpack_from("<Q", data, 8)[0]
    else:
        end = len(data)
    if method != 0:
        fail("the bundle is zstd-compressed; decompress it with clang-offload-bundler first")
    return zlib.decompressobj().decompress(data[header:end])


def parse(data):
    if data.startswith(CCOB):
        data = decompress(data)
    if not data.startswith(MAGIC):
        fail("not a clang offload bundle")
    count = struct.unpack_from("<Q", data, len(MAGIC))[0]
    at = len(MAGIC) + 8
    entries = []
    for _ in range(count):
        offset, size, id_size = struct.unpack_from("<QQQ", data, at)
        entry_id = data[at + 24:at + 24 + id_size].decode()
        if offset + size > len(data):
            fail("entry %s lies outside the bundle" % entry_id)
        entries.append((entry_id, data[offset:offset + size]))
        at += 24 + id_size
    return entries


def write(entries):
    header = len(MAGIC) + 8 + sum(24 + len(i.encode()) for i, _ in entries)
    offsets, at = [], header
    for _, blob in entries:
        at = (at + ALIGN - 1) // ALIGN * ALIGN
        offsets.append(at)
        at += len(blob)
    out = bytearray(MAGIC + struct.pack("<Q", len(entries)))
    for (entry_id, blob), offset in zip(entries, offsets):
        out += struct.pack("<QQQ", offset, len(blob), len(entry_id.encode())) + entry_id.encode()
    for (_, blob), offset in zip(entries, offsets):
        out += b"\0" * (offset - len(out)) + blob
    return bytes(out)


def read_section(path, tmp):
    with open(path, "rb") as f:
        head = f.read(4)
    if head != b"\x7fELF":
        with open(path, "rb") as f:
            return f.read()
    out = os.path.join(tmp, "fatbin.bin")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=" + SECTION, path, out], check=True)
    with open(out, "rb") as f:
        data = f.read()
    if not data:
        fail("%s has no %s section (not built by hipcc?)" % (path, SECTION))
    return data


def cmd_list(args):
    with tempfile.TemporaryDirectory() as tmp:
        for entry_id, blob in parse(read_section(args.file, tmp)):
            print("%-50s %8d bytes" % (entry_id, len(blob)))


def cmd_add_cpu(args):
    entry_id = "hipv4-x86_64-unknown-linux-gnu-" + args.target
    with open(args.cpu_so, "rb") as f:
        cpu = f.read()
    if not cpu.startswith(b"\x7fELF"):
        fail("%s is not an ELF shared object" % args.cpu_so)
    with tempfile.TemporaryDirectory() as tmp:
        entries = [e for e in parse(read_section(args.object, tmp)) if e[0] != entry_id]
        entries.append((entry_id, cpu))
        bundle = os.path.join(tmp, "bundle.bin")
        with open(bundle, "wb") as f:
            f.write(write(entries))
        out = args.output or args.object
        subprocess.run(["objcopy", "--update-section", SECTION + "=" + bundle, args.object, out], check=True)
    print("weft_bundle: %s now carries %s" % (out, ", ".join(e[0] for e in entries)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list", help="list bundle entries")
    p.add_argument("file")
    p.set_defaults(run=cmd_list)
    p = sub.add_parser("add-cpu", help="add a CPU code object to an object file's bundle")
    p.add_argument("object")
    p.add_argument("cpu_so")
    p.add_argument("-o", "--output")
    p.add_argument("--target", default="x86_64")
    p.set_defaults(run=cmd_add_cpu)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
