// SPDX-License-Identifier: MIT
// What a host symbol (hipMemcpyToSymbol & co.) names on a device.
//
// A registered variable (__hipRegisterVar, __hipRegisterManagedVar) is its
// storage in the code object loaded for the device. On agents that run
// single-source kernels an unregistered symbol may be the variable itself: a
// g++-built __device__/__constant__ global is a plain host global that nobody
// registered. The rule that tells such a variable from an arbitrary address: the
// symbol must lie inside a loaded object's data (image_ranges.hpp): its writable
// data (a PT_LOAD segment with PF_W, less its RELRO part) for a copy to the
// symbol, or also read-only data for a copy from it, hipGetSymbolAddress and
// hipGetSymbolSize (a const __constant__ variable). Its storage ends where the
// dynamic symbol containing it ends (dladdr1 RTLD_DL_SYMENT) when one does,
// otherwise where that segment ends. A stack or heap address lies in no such
// segment and is hipErrorInvalidSymbol.
#pragma once

#include "api/api.hpp"
#include "api/image_ranges.hpp"

#include <span>

namespace weft::api {

struct SymbolStorage {
  std::span<std::byte> bytes;
  bool size_known = true;  // false: bounded by the data segment, not by the variable
};

Result<SymbolStorage> symbol_storage(const void* symbol, DeviceState& device, Access access);

// The address of [offset, offset + bytes) inside the symbol's storage.
Result<std::byte*> symbol_range(const void* symbol, size_t offset, size_t bytes,
                                DeviceState& device, Access access);

}  // namespace weft::api
