// SPDX-License-Identifier: MIT
// Copy and fill API: hipMemcpy*, hipMemset* (synchronous, async and _spt forms).
#include "api/api.hpp"
#include "api/memory_checks.hpp"
#include "api/pageable_copy.hpp"

using namespace weft;
using namespace weft::api;

namespace {

// The caller's hipMemcpyKind, checked as an integer before it is used as the enum.
Result<hipMemcpyKind> memcpy_kind(const hipMemcpyKind& kind) {
  int raw = raw_value(kind);
  if ((raw < hipMemcpyHostToHost || raw > hipMemcpyDefault) && raw != hipMemcpyDeviceToDeviceNoCU)
    return Status(hipErrorInvalidMemcpyDirection, fmt::format("{} is not a hipMemcpyKind", raw));
  return static_cast<hipMemcpyKind>(raw);
}

Status copy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream,
            Blocking blocking, DefaultStream default_stream = kLegacy) {
  WEFT_ASSIGN_OR_RETURN(CopyOp op, make_copy(dst, bytes, src, bytes, bytes, 1, kind));
  return submit_copy(stream, op, blocking, default_stream);
}

Status copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
               size_t height, hipMemcpyKind kind, hipStream_t stream, Blocking blocking,
               DefaultStream default_stream = kLegacy) {
  WEFT_ASSIGN_OR_RETURN(CopyOp op, make_copy(dst, dpitch, src, spitch, width, height, kind));
  return submit_copy(stream, op, blocking, default_stream);
}

Status fill(void* dst, uint32_t value, uint8_t element_size, size_t count, hipStream_t stream,
            Blocking blocking, DefaultStream default_stream = kLegacy) {
  WEFT_ASSIGN_OR_RETURN(FillOp op,
                        make_fill(dst, count * element_size, value, element_size, count, 1));
  return submit_on(stream, op, blocking, default_stream);
}

Status fill_2d(void* dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream,
               Blocking blocking, DefaultStream default_stream = kLegacy) {
  WEFT_ASSIGN_OR_RETURN(FillOp op,
                        make_fill(dst, pitch, static_cast<uint8_t>(value), 1, width, height));
  return submit_on(stream, op, blocking, default_stream);
}

// hipMemsetD2D8/16/32: `width` counts elements, `pitch` is in bytes.
Status fill_d2d(void* dst, size_t pitch, uint32_t value, uint8_t element_size, size_t width,
                size_t height, hipStream_t stream, Blocking blocking) {
  WEFT_ASSIGN_OR_RETURN(FillOp op, make_fill(dst, pitch, value, element_size, width, height));
  return submit_on(stream, op, blocking);
}

}  // namespace

WEFT_EXPORT hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
  return call(
      "hipMemcpy",
      [&] {
    WEFT_ASSIGN_OR_RETURN(hipMemcpyKind known, memcpy_kind(kind));
    return copy(dst, src, bytes, known, nullptr, kSync);
      },
      dst, src, bytes, kind);
}

WEFT_EXPORT hipError_t hipMemcpy_spt(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
  return call(
      "hipMemcpy_spt", [&] { return copy(dst, src, bytes, kind, nullptr, kSync, kPerThread); }, dst,
      src, bytes, kind);
}

WEFT_EXPORT hipError_t hipMemcpyWithStream(void* dst, const void* src, size_t bytes,
                                           hipMemcpyKind kind, hipStream_t stream) {
  return call(
      "hipMemcpyWithStream", [&] { return copy(dst, src, bytes, kind, stream, kSync); }, dst, src,
      bytes, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind,
                                      hipStream_t stream) {
  return call(
      "hipMemcpyAsync", [&] { return copy(dst, src, bytes, kind, stream, kAsync); }, dst, src,
      bytes, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpyAsync_spt(void* dst, const void* src, size_t bytes,
                                          hipMemcpyKind kind, hipStream_t stream) {
  return call(
      "hipMemcpyAsync_spt", [&] { return copy(dst, src, bytes, kind, stream, kAsync, kPerThread); },
      dst, src, bytes, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, const void* src, size_t bytes) {
  return call(
      "hipMemcpyHtoD", [&] { return copy(dst, src, bytes, hipMemcpyHostToDevice, nullptr, kSync); },
      dst, src, bytes);
}

WEFT_EXPORT hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t bytes) {
  return call(
      "hipMemcpyDtoH", [&] { return copy(dst, src, bytes, hipMemcpyDeviceToHost, nullptr, kSync); },
      dst, src, bytes);
}

WEFT_EXPORT hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes) {
  return call(
      "hipMemcpyDtoD",
      [&] { return copy(dst, src, bytes, hipMemcpyDeviceToDevice, nullptr, kSync); }, dst, src,
      bytes);
}

WEFT_EXPORT hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, const void* src, size_t bytes,
                                          hipStream_t stream) {
  return call(
      "hipMemcpyHtoDAsync",
      [&] { return copy(dst, src, bytes, hipMemcpyHostToDevice, stream, kAsync); }, dst, src, bytes,
      stream);
}

WEFT_EXPORT hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t bytes,
                                          hipStream_t stream) {
  return call(
      "hipMemcpyDtoHAsync",
      [&] { return copy(dst, src, bytes, hipMemcpyDeviceToHost, stream, kAsync); }, dst, src, bytes,
      stream);
}

WEFT_EXPORT hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes,
                                          hipStream_t stream) {
  return call(
      "hipMemcpyDtoDAsync",
      [&] { return copy(dst, src, bytes, hipMemcpyDeviceToDevice, stream, kAsync); }, dst, src,
      bytes, stream);
}

WEFT_EXPORT hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                                   size_t width, size_t height, hipMemcpyKind kind) {
  return call(
      "hipMemcpy2D",
      [&] { return copy_2d(dst, dpitch, src, spitch, width, height, kind, nullptr, kSync); }, dst,
      dpitch, src, spitch, width, height, kind);
}

WEFT_EXPORT hipError_t hipMemcpy2D_spt(void* dst, size_t dpitch, const void* src, size_t spitch,
                                       size_t width, size_t height, hipMemcpyKind kind) {
  return call(
      "hipMemcpy2D_spt",
      [&] {
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, nullptr, kSync, kPerThread);
      },
      dst, dpitch, src, spitch, width, height, kind);
}

WEFT_EXPORT hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                        size_t width, size_t height, hipMemcpyKind kind,
                                        hipStream_t stream) {
  return call(
      "hipMemcpy2DAsync",
      [&] { return copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, kAsync); }, dst,
      dpitch, src, spitch, width, height, kind, stream);
}

WEFT_EXPORT hipError_t hipMemcpy2DAsync_spt(void* dst, size_t dpitch, const void* src,
                                            size_t spitch, size_t width, size_t height,
                                            hipMemcpyKind kind, hipStream_t stream) {
  return call(
      "hipMemcpy2DAsync_spt",
      [&] {
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, kAsync, kPerThread);
      },
      dst, dpitch, src, spitch, width, height, kind, stream);
}

WEFT_EXPORT hipError_t hipMemset(void* dst, int value, size_t bytes) {
  return call(
      "hipMemset", [&] { return fill(dst, static_cast<uint8_t>(value), 1, bytes, nullptr, kSync); },
      dst, value, bytes);
}

WEFT_EXPORT hipError_t hipMemset_spt(void* dst, int value, size_t bytes) {
  return call(
      "hipMemset_spt",
      [&] { return fill(dst, static_cast<uint8_t>(value), 1, bytes, nullptr, kSync, kPerThread); },
      dst, value, bytes);
}

WEFT_EXPORT hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t stream) {
  return call(
      "hipMemsetAsync",
      [&] { return fill(dst, static_cast<uint8_t>(value), 1, bytes, stream, kAsync); }, dst, value,
      bytes, stream);
}

WEFT_EXPORT hipError_t hipMemsetAsync_spt(void* dst, int value, size_t bytes, hipStream_t stream) {
  return call(
      "hipMemsetAsync_spt",
      [&] { return fill(dst, static_cast<uint8_t>(value), 1, bytes, stream, kAsync, kPerThread); },
      dst, value, bytes, stream);
}

WEFT_EXPORT hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) {
  return call(
      "hipMemsetD8", [&] { return fill(dst, value, 1, count, nullptr, kSync); }, dst, value, count);
}

WEFT_EXPORT hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count,
                                        hipStream_t stream) {
  return call(
      "hipMemsetD8Async", [&] { return fill(dst, value, 1, count, stream, kAsync); }, dst, value,
      count, stream);
}

WEFT_EXPORT hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count) {
  return call(
      "hipMemsetD16", [&] { return fill(dst, value, 2, count, nullptr, kSync); }, dst, value,
      count);
}

WEFT_EXPORT hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count,
                                         hipStream_t stream) {
  return call(
      "hipMemsetD16Async", [&] { return fill(dst, value, 2, count, stream, kAsync); }, dst, value,
      count, stream);
}

WEFT_EXPORT hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
  return call(
      "hipMemsetD32",
      [&] { return fill(dst, static_cast<uint32_t>(value), 4, count, nullptr, kSync); }, dst, value,
      count);
}

WEFT_EXPORT hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                                         hipStream_t stream) {
  return call(
      "hipMemsetD32Async",
      [&] { return fill(dst, static_cast<uint32_t>(value), 4, count, stream, kAsync); }, dst, value,
      count, stream);
}

WEFT_EXPORT hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width,
                                   size_t height) {
  return call(
      "hipMemset2D", [&] { return fill_2d(dst, pitch, value, width, height, nullptr, kSync); }, dst,
      pitch, value, width, height);
}

WEFT_EXPORT hipError_t hipMemset2D_spt(void* dst, size_t pitch, int value, size_t width,
                                       size_t height) {
  return call(
      "hipMemset2D_spt",
      [&] { return fill_2d(dst, pitch, value, width, height, nullptr, kSync, kPerThread); }, dst,
      pitch, value, width, height);
}

WEFT_EXPORT hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width,
                                        size_t height, hipStream_t stream) {
  return call(
      "hipMemset2DAsync", [&] { return fill_2d(dst, pitch, value, width, height, stream, kAsync); },
      dst, pitch, value, width, height, stream);
}

WEFT_EXPORT hipError_t hipMemset2DAsync_spt(void* dst, size_t pitch, int value, size_t width,
                                            size_t height, hipStream_t stream) {
  return call(
      "hipMemset2DAsync_spt",
      [&] { return fill_2d(dst, pitch, value, width, height, stream, kAsync, kPerThread); }, dst,
      pitch, value, width, height, stream);
}

WEFT_EXPORT hipError_t hipMemsetD2D8(hipDeviceptr_t dst, size_t pitch, unsigned char value,
                                     size_t width, size_t height) {
  return call(
      "hipMemsetD2D8",
      [&] { return fill_d2d(dst, pitch, value, 1, width, height, nullptr, kSync); }, dst, pitch,
      value, width, height);
}

WEFT_EXPORT hipError_t hipMemsetD2D8Async(hipDeviceptr_t dst, size_t pitch, unsigned char value,
                                          size_t width, size_t height, hipStream_t stream) {
  return call(
      "hipMemsetD2D8Async",
      [&] { return fill_d2d(dst, pitch, value, 1, width, height, stream, kAsync); }, dst, pitch,
      value, width, height, stream);
}

WEFT_EXPORT hipError_t hipMemsetD2D16(hipDeviceptr_t dst, size_t pitch, unsigned short value,
                                      size_t width, size_t height) {
  return call(
      "hipMemsetD2D16",
      [&] { return fill_d2d(dst, pitch, value, 2, width, height, nullptr, kSync); }, dst, pitch,
      value, width, height);
}

WEFT_EXPORT hipError_t hipMemsetD2D16Async(hipDeviceptr_t dst, size_t pitch, unsigned short value,
                                           size_t width, size_t height, hipStream_t stream) {
  return call(
      "hipMemsetD2D16Async",
      [&] { return fill_d2d(dst, pitch, value, 2, width, height, stream, kAsync); }, dst, pitch,
      value, width, height, stream);
}

WEFT_EXPORT hipError_t hipMemsetD2D32(hipDeviceptr_t dst, size_t pitch, unsigned int value,
                                      size_t width, size_t height) {
  return call(
      "hipMemsetD2D32",
      [&] { return fill_d2d(dst, pitch, value, 4, width, height, nullptr, kSync); }, dst, pitch,
      value, width, height);
}

WEFT_EXPORT hipError_t hipMemsetD2D32Async(hipDeviceptr_t dst, size_t pitch, unsigned int value,
                                           size_t width, size_t height, hipStream_t stream) {
  return call(
      "hipMemsetD2D32Async",
      [&] { return fill_d2d(dst, pitch, value, 4, width, height, stream, kAsync); }, dst, pitch,
      value, width, height, stream);
}
