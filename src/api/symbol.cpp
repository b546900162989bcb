// SPDX-License-Identifier: MIT
// Device variables by host symbol: hipMemcpyToSymbol/FromSymbol (+Async, _spt),
// hipGetSymbolAddress/Size. What a symbol names: symbol_storage.hpp.
#include "api/symbol_storage.hpp"

#include "api/image_ranges.hpp"
#include "api/memory_checks.hpp"
#include "codeobj/registry.hpp"

using namespace weft;
using namespace weft::api;

namespace weft::api {

Result<SymbolStorage> symbol_storage(const void* symbol, DeviceState& device, Access access) {
  if (!symbol) return Status(hipErrorInvalidSymbol, "null symbol");
  if (Ref<RegisteredVariable> v = Registry::get().variable(symbol)) {
    WEFT_ASSIGN_OR_RETURN(std::span<std::byte> storage, v->address_on(device));
    return SymbolStorage{storage, true};
  }
  if (!device.driver_device().caps().runs_host_kernels)
    return Status(hipErrorInvalidSymbol,
                  fmt::format("{} is not a registered device variable", symbol));
  auto segment = image_data_range(symbol, 1, access);
  if (!segment)
    return Status(hipErrorInvalidSymbol,
                  fmt::format("{} is neither a registered device variable nor a global in a loaded "
                              "object's {}data (a stack or heap address is no symbol)",
                              symbol, access == Access::kWrite ? "writable " : ""));
  auto* begin = static_cast<std::byte*>(const_cast<void*>(symbol));
  if (auto variable = image_symbol(symbol))
    return SymbolStorage{{begin, static_cast<size_t>(variable->data() + variable->size() - begin)},
                         true};
  return SymbolStorage{{begin, static_cast<size_t>(segment->data() + segment->size() - begin)},
                       false};
}

Result<std::byte*> symbol_range(const void* symbol, size_t offset, size_t bytes,
                                DeviceState& device, Access access) {
  WEFT_ASSIGN_OR_RETURN(SymbolStorage storage, symbol_storage(symbol, device, access));
  size_t size = storage.bytes.size();
  if (offset > size || bytes > size - offset)
    return invalid_value(fmt::format("{} bytes at offset {} exceed the {}-byte {}", bytes, offset,
                                     size,
                                     storage.size_known ? "variable" : "data segment it lies in"));
  return storage.bytes.data() + offset;
}

}  // namespace weft::api

namespace {

Result<DeviceState*> device_of(hipStream_t stream, DefaultStream default_stream) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  return &s->device();
}

Status symbol_copy(bool to_symbol, const void* symbol, void* host, size_t bytes, size_t offset,
                   hipMemcpyKind kind, hipStream_t stream, Blocking blocking,
                   DefaultStream default_stream) {
  if (to_symbol && kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToDevice &&
      kind != hipMemcpyDefault)
    return Status(hipErrorInvalidMemcpyDirection,
                  "copies to a symbol go host-to-device or device-to-device");
  if (!to_symbol && kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice &&
      kind != hipMemcpyDefault)
    return Status(hipErrorInvalidMemcpyDirection,
                  "copies from a symbol go device-to-host or device-to-device");
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_of(stream, default_stream));
  Access access = to_symbol ? Access::kWrite : Access::kRead;
  WEFT_RETURN_IF_ERROR(symbol_storage(symbol, *device, access).status());
  if (bytes == 0) return Status();
  if (!host) return invalid_value("null host pointer");
  WEFT_ASSIGN_OR_RETURN(std::byte * address, symbol_range(symbol, offset, bytes, *device, access));
  // The other side is what the kind says it is; the symbol's side is checked above.
  Side other = kind == hipMemcpyDeviceToDevice ? Side::kDevice
             : kind == hipMemcpyDefault        ? Side::kEither
                                               : Side::kHost;
  CopyOp op;
  if (to_symbol) {
    WEFT_ASSIGN_OR_RETURN(op,
                          make_copy(address, bytes, host, bytes, bytes, 1, Side::kVerified, other));
  } else {
    WEFT_ASSIGN_OR_RETURN(op,
                          make_copy(host, bytes, address, bytes, bytes, 1, other, Side::kVerified));
  }
  return submit_on(stream, op, blocking, default_stream);
}

}  // namespace

WEFT_EXPORT hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t sizeBytes,
                                         size_t offset, hipMemcpyKind kind) {
  return call(
      "hipMemcpyToSymbol",
      [&] {
    return symbol_copy(true, symbol, const_cast<void*>(src), sizeBytes, offset, kind, nullptr,
                       kSync, kLegacy);
      },
      symbol, src, sizeBytes, offset, kind);
}

WEFT_EXPORT hipError_t hipMemcpyToSymbol_spt(const void* symbol, const void* src, size_t sizeBytes,
                                             size_t offset, hipMemcpyKind kind) {
  return call(
      "hipMemcpyToSymbol_spt",
      [&] {
    return symbol_copy(true, symbol, const_cast<void*>(src), sizeBytes, offset, kind, nullptr,
                       kSync, kPerThread);
      },
      symbol, src, sizeBytes, offset, kind);
}

WEFT_EXPORT hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t sizeBytes,
                                              size_t offset, hipMemcpyKind kind,
                                              hipStream_t stream) {
  return call(
      "hipMemcpyToSymbolAsync",
      [&] {
    return symbol_copy(true, symbol, const_cast<void*>(src), sizeBytes, offset, kind, stream,
                       kAsync, kLegacy);
      },
      symbol, src, sizeBytes, offset, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpyToSymbolAsync_spt(const void* symbol, const void* src,
                                                  size_t sizeBytes, size_t offset,
                                                  hipMemcpyKind kind, hipStream_t stream) {
  return call(
      "hipMemcpyToSymbolAsync_spt",
      [&] {
    return symbol_copy(true, symbol, const_cast<void*>(src), sizeBytes, offset, kind, stream,
                       kAsync, kPerThread);
      },
      symbol, src, sizeBytes, offset, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t sizeBytes,
                                           size_t offset, hipMemcpyKind kind) {
  return call(
      "hipMemcpyFromSymbol",
      [&] {
    return symbol_copy(false, symbol, dst, sizeBytes, offset, kind, nullptr, kSync, kLegacy);
      },
      dst, symbol, sizeBytes, offset, kind);
}

WEFT_EXPORT hipError_t hipMemcpyFromSymbol_spt(void* dst, const void* symbol, size_t sizeBytes,
                                               size_t offset, hipMemcpyKind kind) {
  return call(
      "hipMemcpyFromSymbol_spt",
      [&] {
    return symbol_copy(false, symbol, dst, sizeBytes, offset, kind, nullptr, kSync, kPerThread);
      },
      dst, symbol, sizeBytes, offset, kind);
}

WEFT_EXPORT hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t sizeBytes,
                                                size_t offset, hipMemcpyKind kind,
                                                hipStream_t stream) {
  return call(
      "hipMemcpyFromSymbolAsync",
      [&] {
    return symbol_copy(false, symbol, dst, sizeBytes, offset, kind, stream, kAsync, kLegacy);
      },
      dst, symbol, sizeBytes, offset, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpyFromSymbolAsync_spt(void* dst, const void* symbol, size_t sizeBytes,
                                                    size_t offset, hipMemcpyKind kind,
                                                    hipStream_t stream) {
  return call(
      "hipMemcpyFromSymbolAsync_spt",
      [&] {
    return symbol_copy(false, symbol, dst, sizeBytes, offset, kind, stream, kAsync, kPerThread);
      },
      dst, symbol, sizeBytes, offset, kind, stream);
}

WEFT_EXPORT hipError_t hipGetSymbolAddress(void** devPtr, const void* symbol) {
  return call(
      "hipGetSymbolAddress",
      [&] {
    if (!devPtr) return invalid_value("null output");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    WEFT_ASSIGN_OR_RETURN(SymbolStorage storage, symbol_storage(symbol, *device, Access::kRead));
    *devPtr = storage.bytes.data();
    return Status();
      },
      devPtr, symbol);
}

WEFT_EXPORT hipError_t hipGetSymbolSize(size_t* size, const void* symbol) {
  return call(
      "hipGetSymbolSize",
      [&] {
    if (!size) return invalid_value("null output");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    WEFT_ASSIGN_OR_RETURN(SymbolStorage storage, symbol_storage(symbol, *device, Access::kRead));
    if (!storage.size_known)
      return Status(hipErrorInvalidSymbol,
                    "the size of an unregistered (single-source) variable is unknown: no dynamic "
                    "symbol names it (link with -rdynamic to export it)");
    *size = storage.bytes.size();
    return Status();
      },
      size, symbol);
}
