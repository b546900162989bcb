// SPDX-License-Identifier: MIT
// Device variables by host symbol: hipMemcpyToSymbol/FromSymbol (+Async, _spt),
// hipGetSymbolAddress/Size.
//
// A registered variable (__hipRegisterVar, __hipRegisterManagedVar) resolves in
// the code object loaded for the device. On agents that run single-source
// kernels, an unregistered symbol is the variable itself (a g++-compiled
// __device__ global lives in host memory); its size is unknown there.
#include "api/api.hpp"
#include "api/memory_checks.hpp"
#include "codeobj/registry.hpp"

using namespace weft;
using namespace weft::api;

namespace {

constexpr size_t kUnknownSize = SIZE_MAX;

Result<std::span<std::byte>> symbol_storage(const void* symbol, DeviceState& device) {
  if (!symbol) return Status(hipErrorInvalidSymbol, "null symbol");
  if (Ref<RegisteredVariable> v = Registry::get().variable(symbol)) return v->address_on(device);
  if (device.driver_device().caps().runs_host_kernels)
    return std::span<std::byte>(static_cast<std::byte*>(const_cast<void*>(symbol)), kUnknownSize);
  return Status(hipErrorInvalidSymbol, fmt::format("{} is not a registered device variable", symbol));
}

Result<DeviceState*> device_of(hipStream_t stream, bool per_thread) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, per_thread));
  return &s->device();
}

Status symbol_copy(bool to_symbol, const void* symbol, void* host, size_t bytes, size_t offset, hipMemcpyKind kind,
                   hipStream_t stream, bool sync, bool per_thread) {
  if (to_symbol && kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return Status(hipErrorInvalidMemcpyDirection, "copies to a symbol go host-to-device or device-to-device");
  if (!to_symbol && kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return Status(hipErrorInvalidMemcpyDirection, "copies from a symbol go device-to-host or device-to-device");
  WEFT_ASSIGN_OR_RETURN(DeviceState* device, device_of(stream, per_thread));
  WEFT_ASSIGN_OR_RETURN(std::span<std::byte> storage, symbol_storage(symbol, *device));
  if (bytes == 0) return Status();
  if (!host) return invalid_value("null host pointer");
  if (storage.size() != kUnknownSize && (offset > storage.size() || bytes > storage.size() - offset))
    return invalid_value(fmt::format("{} bytes at offset {} exceed the {}-byte variable", bytes, offset,
                                     storage.size()));
  std::byte* address = storage.data() + offset;
  CopyOp op;
  if (to_symbol) {
    WEFT_ASSIGN_OR_RETURN(op, make_copy(address, bytes, host, bytes, bytes, 1, kind));
  } else {
    WEFT_ASSIGN_OR_RETURN(op, make_copy(host, bytes, address, bytes, bytes, 1, kind));
  }
  return submit_on(stream, op, sync, per_thread);
}

}  // namespace

WEFT_EXPORT hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t sizeBytes, size_t offset,
                                         hipMemcpyKind kind) {
  return call("hipMemcpyToSymbol", [&] {
    return symbol_copy(true, symbol, const_cast<void*>(src), sizeBytes, offset, kind, nullptr, true, false);
  }, symbol, src, sizeBytes, offset, kind);
}

WEFT_EXPORT hipError_t hipMemcpyToSymbol_spt(const void* symbol, const void* src, size_t sizeBytes, size_t offset,
                                             hipMemcpyKind kind) {
  return call("hipMemcpyToSymbol_spt", [&] {
    return symbol_copy(true, symbol, const_cast<void*>(src), sizeBytes, offset, kind, nullptr, true, true);
  }, symbol, src, sizeBytes, offset, kind);
}

WEFT_EXPORT hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t sizeBytes, size_t offset,
                                              hipMemcpyKind kind, hipStream_t stream) {
  return call("hipMemcpyToSymbolAsync", [&] {
    return symbol_copy(true, symbol, const_cast<void*>(src), sizeBytes, offset, kind, stream, false, false);
  }, symbol, src, sizeBytes, offset, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpyToSymbolAsync_spt(const void* symbol, const void* src, size_t sizeBytes,
                                                  size_t offset, hipMemcpyKind kind, hipStream_t stream) {
  return call("hipMemcpyToSymbolAsync_spt", [&] {
    return symbol_copy(true, symbol, const_cast<void*>(src), sizeBytes, offset, kind, stream, false, true);
  }, symbol, src, sizeBytes, offset, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t sizeBytes, size_t offset,
                                           hipMemcpyKind kind) {
  return call("hipMemcpyFromSymbol", [&] {
    return symbol_copy(false, symbol, dst, sizeBytes, offset, kind, nullptr, true, false);
  }, dst, symbol, sizeBytes, offset, kind);
}

WEFT_EXPORT hipError_t hipMemcpyFromSymbol_spt(void* dst, const void* symbol, size_t sizeBytes, size_t offset,
                                               hipMemcpyKind kind) {
  return call("hipMemcpyFromSymbol_spt", [&] {
    return symbol_copy(false, symbol, dst, sizeBytes, offset, kind, nullptr, true, true);
  }, dst, symbol, sizeBytes, offset, kind);
}

WEFT_EXPORT hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t sizeBytes, size_t offset,
                                                hipMemcpyKind kind, hipStream_t stream) {
  return call("hipMemcpyFromSymbolAsync", [&] {
    return symbol_copy(false, symbol, dst, sizeBytes, offset, kind, stream, false, false);
  }, dst, symbol, sizeBytes, offset, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpyFromSymbolAsync_spt(void* dst, const void* symbol, size_t sizeBytes, size_t offset,
                                                    hipMemcpyKind kind, hipStream_t stream) {
  return call("hipMemcpyFromSymbolAsync_spt", [&] {
    return symbol_copy(false, symbol, dst, sizeBytes, offset, kind, stream, false, true);
  }, dst, symbol, sizeBytes, offset, kind, stream);
}

WEFT_EXPORT hipError_t hipGetSymbolAddress(void** devPtr, const void* symbol) {
  return call("hipGetSymbolAddress", [&] {
    if (!devPtr) return invalid_value("null output");
    WEFT_ASSIGN_OR_RETURN(DeviceState* device, current_device());
    WEFT_ASSIGN_OR_RETURN(std::span<std::byte> storage, symbol_storage(symbol, *device));
    *devPtr = storage.data();
    return Status();
  }, devPtr, symbol);
}

WEFT_EXPORT hipError_t hipGetSymbolSize(size_t* size, const void* symbol) {
  return call("hipGetSymbolSize", [&] {
    if (!size) return invalid_value("null output");
    WEFT_ASSIGN_OR_RETURN(DeviceState* device, current_device());
    WEFT_ASSIGN_OR_RETURN(std::span<std::byte> storage, symbol_storage(symbol, *device));
    if (storage.size() == kUnknownSize)
      return Status(hipErrorInvalidSymbol, "the size of an unregistered (single-source) variable is unknown");
    *size = storage.size();
    return Status();
  }, size, symbol);
}
