# SPDX-License-Identifier: MIT
"""Reading and writing clang offload bundles (the .hip_fatbin of a program).

Writing goes through clang-offload-bundler (the tool hipcc uses, so weftcc's bundles are
byte-for-byte the kind hipcc makes). Reading is done here, in Python, so that
`weftcc --list-images` works on objects, executables and shared libraries alike (an
executable's .hip_fatbin is found through the ELF section headers) without binutils.
Layouts: docs/code-objects.md.
"""
from __future__ import annotations

import pathlib
import struct
import zlib

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
CCOB = b"CCOB"
SECTION = ".hip_fatbin"
ALIGN = 4096


class BundleError(Exception):
    pass


def make_bundle(bundler: str, entries: list, output: pathlib.Path, run) -> None:
    """entries: [(entry_id, path or None)]; None is an empty entry (the host's).
    `run(cmd)` runs the command (prints it under -v, raises on failure)."""
    targets = ",".join(entry_id for entry_id, _ in entries)
    cmd = [bundler, "-type=o", f"-bundle-align={ALIGN}", f"-targets={targets}"]
    cmd += [f"-input={path if path is not None else '/dev/null'}" for _, path in entries]
    cmd.append(f"-output={output}")
    run(cmd)


def _elf_section(data: bytes, name: str):
    """The bytes of section `name` of a 64-bit little-endian ELF file, or None."""
    if len(data) < 64 or data[4] != 2 or data[5] != 1:
        raise BundleError("only 64-bit little-endian ELF files are supported")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shoff == 0 or shentsize < 64 or shoff + shnum * shentsize > len(data) or shstrndx >= shnum:
        raise BundleError("the ELF section headers are missing or lie outside the file")

    def header(i):
        at = shoff + i * shentsize
        name_off, sh_type = struct.unpack_from("<II", data, at)
        offset, size = struct.unpack_from("<QQ", data, at + 0x18)
        return name_off, sh_type, offset, size

    _, _, str_off, str_size = header(shstrndx)
    names = data[str_off:str_off + str_size]
    for i in range(shnum):
        name_off, sh_type, offset, size = header(i)
        end = names.find(b"\0", name_off)
        if names[name_off:end].decode(errors="replace") != name:
            continue
        if sh_type == 8:  # SHT_NOBITS
            return b""
        if offset + size > len(data):
            raise BundleError(f"section {name} lies outside the file")
        return data[offset:offset + size]
    return None


def has_section(path: pathlib.Path, name: str) -> bool:
    data = pathlib.Path(path).read_bytes()
    return data.startswith(b"\x7fELF") and _elf_section(data, name) is not None


def _decompress(data: bytes) -> bytes:
    if len(data) < 8:
        raise BundleError("truncated compressed bundle")
    version, method = struct.unpack_from("<HH", data, 4)
    header = {1: 20, 2: 24, 3: 32}.get(version)
    if header is None:
        raise BundleError(f"compressed bundle version {version} is not supported")
    end = len(data)
    if version == 2:
        end = struct.unpack_from("<I", data, 8)[0]
    elif version == 3:
        end = struct.unpack_from("<Q", data, 8)[0]
    if method != 0:
        raise BundleError("the bundle is zstd-compressed; unpack it with clang-offload-bundler first")
    return zlib.decompressobj().decompress(data[header:end])


def parse_bundle(data: bytes) -> list:
    """[(entry_id, bytes)] of a raw or CCOB bundle. Every stored bundle of a section
    is read: a linked program's .hip_fatbin holds one bundle per object that had one."""
    entries = []
    at = 0
    while at < len(data):
        chunk = data[at:]
        if chunk.startswith(CCOB):
            size = len(chunk)
            if struct.unpack_from("<H", chunk, 4)[0] == 2:
                size = struct.unpack_from("<I", chunk, 8)[0]
            elif struct.unpack_from("<H", chunk, 4)[0] == 3:
                size = struct.unpack_from("<Q", chunk, 8)[0]
            entries += parse_bundle(_decompress(chunk[:size]))
            at += max(size, 1)
        elif chunk.startswith(MAGIC):
            count, = struct.unpack_from("<Q", chunk, len(MAGIC))
            pos = len(MAGIC) + 8
            end = pos
            for _ in range(count):
                if pos + 24 > len(chunk):
                    raise BundleError("the bundle header is truncated")
                offset, size, id_size = struct.unpack_from("<QQQ", chunk, pos)
                entry_id = chunk[pos + 24:pos + 24 + id_size].decode(errors="replace")
                if offset + size > len(chunk):
                    raise BundleError(f"entry {entry_id} lies outside the bundle")
                entries.append((entry_id, chunk[offset:offset + size]))
                pos += 24 + id_size
                end = max(end, pos, offset + size)
            at += end
        else:
            # Bundles of several objects are padded to their alignment with zeros.
            nxt = [i for i in (data.find(MAGIC, at), data.find(CCOB, at)) if i >= 0]
            if not nxt:
                if data[at:].strip(b"\0"):
                    raise BundleError("not a clang offload bundle")
                break
            at = min(nxt)
    return entries


def read_entries(path: pathlib.Path) -> list:
    data = pathlib.Path(path).read_bytes()
    if data.startswith(b"\x7fELF"):
        section = _elf_section(data, SECTION)
        if section is None:
            raise BundleError(f"{path} has no {SECTION} section (not compiled by weftcc or hipcc?)")
        data = section
    return parse_bundle(data)


def describe(blob: bytes) -> str:
    """What an entry holds, in a few words."""
    if not blob:
        return "empty"
    if blob.startswith(b"\x7fELF") and len(blob) >= 20:
        e_type, e_machine = struct.unpack_from("<HH", blob, 16)
        machine = {62: "x86-64", 224: "AMDGPU", 190: "CUDA"}.get(e_machine, f"machine {e_machine}")
        kind = {1: "relocatable", 2: "executable", 3: "shared object"}.get(e_type, f"type {e_type}")
        return f"ELF {kind}, {machine}"
    if blob.lstrip().startswith(b"//") or b".target" in blob[:4096]:
        return "PTX text"
    if blob.startswith(MAGIC) or blob.startswith(CCOB):
        return "nested bundle"
    return "data"


def list_images(path: pathlib.Path) -> str:
    rows = [f"{entry_id:<50} {len(blob):>9} bytes  {describe(blob)}"
            for entry_id, blob in read_entries(path)]
    return "\n".join(rows)
