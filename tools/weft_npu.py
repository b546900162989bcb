#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Packs what mlir-aie/IRON build for an AMD NPU into weft's NPU code object.

  weft_npu.py pack XCLBIN --kernel NAME=INSTS.bin[:BUFFERS] ... [-o OUT] [--target aie2]
      XCLBIN: aiecc.py --aie-generate-xclbin output (final.xclbin); INSTS.bin:
      aiecc.py --aie-generate-npu-insts output (little-endian u32 words). Each
      kernel uses the mlir-aie register map (opcode 3 at 0x00, instruction
      address 0x08, word count 0x10, BUFFERS buffer addresses from 0x14; default
      5) and DPU kernel ID 0x901 with CU function 1 (override: --kernel-id).
      Load OUT with hipModuleLoad; launch NAME with hipModuleLaunchKernel(f,
      1,1,1, 1,1,1, 0, stream, {&buf0, ...}, nullptr), buffers from hipMalloc.
  weft_npu.py list FILE
      Prints the header, kernels and argument layouts of an NPU code object.

Layout: docs/code-objects.md ("NPU code objects"); parser: lib/codeobj/npu_object.cpp.
"""
import argparse
import struct
import sys

MAGIC = b"WEFTNPU\0"


def align8(n):
    return (n + 7) & ~7


def pack(xclbin, kernels, target, kernel_id):
    header = bytearray(64)
    table = 64
    out = bytearray(header) + bytearray(64 * len(kernels))
    for i, (name, words, buffers) in enumerate(kernels):
        rec = table + 64 * i
        name_at = len(out)
        out += name.encode()
        instr_at = align8(len(out))
        out += bytes(instr_at - len(out)) + words
        args_at = align8(len(out))
        out += bytes(args_at - len(out))
        for b in range(buffers):
            out += struct.pack("<IIII", 1, 8, 0x14 + 8 * b, 0)
        regmap = 0x14 + 8 * buffers
        struct.pack_into("<QII", out, rec, name_at, len(name.encode()), kernel_id)
        struct.pack_into("<QQQII", out, rec + 16, instr_at, len(words), args_at, buffers, regmap)
        struct.pack_into("<HHHHIB3x", out, rec + 48, 0x00, 0x08, 0x10, 0, 3, 1)
    x_at = align8(len(out))
    out += bytes(x_at - len(out)) + xclbin
    out[0:8] = MAGIC
    struct.pack_into("<IIQ16sQQQ", out, 8, 1, len(kernels), len(out), target.encode(), x_at, len(xclbin), table)
    return bytes(out)


def list_object(data):
    if data[:8] != MAGIC:
        sys.exit("not a weft NPU code object")
    version, count, total, target, x_at, x_size, table = struct.unpack_from("<IIQ16sQQQ", data, 8)
    print(f"NPU code object v{version}, target {target.rstrip(bytes(1)).decode()}, {total} bytes, "
          f"xclbin {x_size} bytes at {x_at}")
    for i in range(count):
        rec = table + 64 * i
        name_at, name_size, kid = struct.unpack_from("<QII", data, rec)
        instr_at, instr_size, args_at, nargs, regmap = struct.unpack_from("<QQQII", data, rec + 16)
        op_slot, instr_slot, ninstr_slot, _, opcode, func = struct.unpack_from("<HHHHIB", data, rec + 48)
        name = data[name_at:name_at + name_size].decode()
        print(f"  {name}: DPU kernel 0x{kid:x}, {instr_size // 4} instruction words, register map {regmap} bytes "
              f"(opcode {opcode} at 0x{op_slot:x}, instr 0x{instr_slot:x}, ninstr 0x{ninstr_slot:x}), CU function {func}")
        for a in range(nargs):
            kind, size, offset, _ = struct.unpack_from("<IIII", data, args_at + 16 * a)
            print(f"    arg {a}: {'buffer' if kind == 1 else 'scalar'} of {size} bytes at 0x{offset:x}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    pk = sub.add_parser("pack")
    pk.add_argument("xclbin")
    pk.add_argument("--kernel", action="append", required=True, help="NAME=INSTS.bin[:BUFFERS]")
    pk.add_argument("--target", default="aie2", help="aie2 (Phoenix, Hawk Point) or aie2p (Strix and later)")
    pk.add_argument("--kernel-id", type=lambda s: int(s, 0), default=0x901)
    pk.add_argument("-o", "--output", default="kernels.npu")
    ls = sub.add_parser("list")
    ls.add_argument("file")
    args = p.parse_args()
    if args.cmd == "list":
        list_object(open(args.file, "rb").read())
        return
    kernels = []
    for spec in args.kernel:
        name, _, rest = spec.partition("=")
        path, _, buffers = rest.partition(":")
        words = open(path, "rb").read()
        if not name or not words or len(words) % 4:
            sys.exit(f"--kernel {spec}: a name and a non-empty instruction file of whole u32 words are needed")
        kernels.append((name, words, int(buffers) if buffers else 5))
    data = pack(open(args.xclbin, "rb").read(), kernels, args.target, args.kernel_id)
    open(args.output, "wb").write(data)
    print(f"{args.output}: {len(kernels)} kernel(s), {len(data)} bytes")


if __name__ == "__main__":
    main()
