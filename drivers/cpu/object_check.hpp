// SPDX-License-Identifier: MIT
// Checks a CPU code object's file image before dlopen sees it: the loadable
// segments, the dynamic section and relocations that ld.so will act on, and the
// kernel table with every record, name and argument list, each bounds-checked
// inside the segments. The kernel table is read from the file image (its
// pointers resolved through the relocations), so nothing after dlopen has to
// follow a pointer from the loaded object. Pure; docs/code-objects.md.
#pragma once

#include <hip/weft/kernel_abi.h>
#include <weft/codeobj/elf.hpp>
#include <weft/driver/device.hpp>

#include <string>
#include <vector>

namespace weft::cpu {

struct CheckedKernel {
  KernelInfo info;           // info.name is filled by the loader (the linker name)
  std::string written_name;  // as written in WEFT_CPU_KERNEL
  weftKernelEntry entry = nullptr;
  uint64_t function_vaddr = 0;  // the kernel function, as an address in the object
};

struct CheckedGlobal {
  std::string name;
  uint64_t vaddr = 0;
  uint64_t size = 0;
};

struct CheckedSegment {
  uint64_t vaddr = 0, memsz = 0;
  uint32_t flags = 0;  // PF_R/W/X
};

struct CheckedObject {
  std::vector<CheckedSegment> segments;  // loadable segments, as mapped at base + vaddr
  std::vector<CheckedGlobal> globals;    // defined data objects, inside the segments
  uint64_t records = 0;                  // link-time address of the kernel records
  uint64_t record_count = 0;
  uint64_t span = 0;  // end of the highest loadable segment
};

// Before dlopen: hipErrorInvalidImage ("CPU code object: …") naming the first
// thing wrong in the segments, dynamic section, symbol, hash and version tables,
// relocations, constructor arrays, kernel table header and bounds, and globals.
Result<CheckedObject> check_cpu_object(const codeobj::ElfFile& elf);

// After dlopen, for an object mapped at `base`: the kernel records. The object's
// constructors write them (WEFT_CPU_KERNEL initialises them dynamically), so they
// are read from memory, and every pointer in them (name, argument table, entry)
// is checked to lie in the object's own segments before it is followed.
Result<std::vector<CheckedKernel>> check_loaded_records(const CheckedObject& object,
                                                        uintptr_t base);

}  // namespace weft::cpu
