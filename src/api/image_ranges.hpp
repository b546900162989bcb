// SPDX-License-Identifier: MIT
// Where a host address lies among the loaded ELF objects (the executable, its
// shared libraries, dlopen'd CPU code objects). A device variable the pointer
// table does not list — a g++-built program's __device__ global, a global of a
// CPU code object reached through hipModuleGetGlobal or hipGetSymbolAddress — is
// storage inside such an object's writable data; a stack or heap address is not.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

namespace weft::api {

enum class Access { kRead, kWrite };

// The part of a loaded object's data segment holding [ptr, ptr + bytes) whole, or
// nullopt when no such segment holds all of it. kWrite: a writable PT_LOAD
// segment less its RELRO part (read-only once relocated). kRead: that, RELRO
// data, or a read-only, non-executable PT_LOAD segment (.rodata: a const
// __constant__ variable can be read, not written).
std::optional<std::span<std::byte>> image_data_range(const void* ptr, size_t bytes, Access access);

// The object named by the dynamic symbol table entry containing ptr (dladdr1 with
// RTLD_DL_SYMENT), or nullopt when no exported symbol covers it (an executable
// built without -rdynamic exports none of its variables).
std::optional<std::span<std::byte>> image_symbol(const void* ptr);

}  // namespace weft::api
