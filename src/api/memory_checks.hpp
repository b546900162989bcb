// SPDX-License-Identifier: MIT
// Argument checks shared by the copy and fill entry points: what each side of a
// copy must be (as its hipMemcpyKind names it), bounds against the pointer table,
// pointer-kind inference for hipMemcpyDefault.
//
// The rule (docs/architecture.md, "Copy and fill checks"): a side the kind calls
// device memory must be memory HIP knows — a live allocation (device, managed,
// pinned or registered host memory, as AMD's and CUDA's runtimes accept pinned
// memory on the device side of a copy), or a loaded module's variable (see
// image_ranges.hpp). Anything else — a freed pointer, one past an allocation,
// plain malloc or stack memory — fails with hipErrorInvalidValue and nothing is
// written. A side the kind calls host memory may be any address; a HIP
// allocation there is still bounds-checked. hipMemcpyDefault treats an unknown
// address as host memory. One pointer-table lookup per side.
#pragma once

#include "api/api.hpp"
#include "api/image_ranges.hpp"

#include <weft/driver/op.hpp>

#include <optional>

namespace weft::api {

// What one side of a copy or fill must be.
enum class Side {
  kHost,      // the kind says host memory: any address
  kDevice,    // the kind says device memory: must be memory HIP knows
  kEither,    // hipMemcpyDefault or unified: an unknown address is host memory
  kVerified,  // a device variable's storage the caller resolved and bounded
};

// Fails with hipErrorInvalidValue when [ptr, ptr + bytes) starts inside a tracked
// allocation and runs past its end, or when `side` is kDevice and ptr is no
// memory HIP knows.
// `access` says whether the memory is written (destinations) or only read.
Status check_span(const void* ptr, size_t bytes, Side side, const char* what,
                  Access access = Access::kWrite);

// Checks a region of several slices, from its base pointer to the end of its
// last slice, against the allocation the base lies in: a later slice may start
// past that allocation's end, where a check of the slice alone would see
// unknown memory.
Status check_region(const void* base, const void* last_slice, size_t last_slice_span, Side side,
                    const char* what, Access access);

// Rows of a 2D region: the span from the first byte to the last row's end, or
// nullopt when it overflows size_t.
std::optional<size_t> span_2d(size_t pitch, size_t width, size_t height);

bool is_device_pointer(const void* ptr);

// The copy direction for a hipMemcpyKind (hipMemcpyDefault is inferred from the
// pointers); hipErrorInvalidMemcpyDirection for values that are not a kind.
Result<CopyDirection> copy_direction(hipMemcpyKind kind, const void* dst, const void* src);

// What a hipMemcpyKind says each side is (dst, src); hipErrorInvalidMemcpyDirection
// for values that are not a kind.
Result<std::pair<Side, Side>> copy_sides(hipMemcpyKind kind);

// Builds a checked 2D copy (1D when height is 1).
Result<CopyOp> make_copy(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                         size_t width, size_t height, hipMemcpyKind kind);

// The same with each side's rule given directly (hip_Memcpy2D memory types,
// symbol storage).
Result<CopyOp> make_copy(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                         size_t width, size_t height, Side dst_side, Side src_side);

// Builds a checked 2D fill. The destination must be memory HIP knows (hipMemset
// on plain malloc memory is hipErrorInvalidValue).
Result<FillOp> make_fill(void* dst, size_t pitch, uint32_t value, uint8_t element_size,
                         size_t width_elements, size_t height);

// Submits an op on a stream; kSync waits for the stream afterwards
// (the synchronous API forms).
Status submit_on(hipStream_t stream, Op op, Blocking blocking,
                 DefaultStream default_stream = kLegacy);

}  // namespace weft::api
