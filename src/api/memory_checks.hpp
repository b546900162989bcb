// SPDX-License-Identifier: MIT
// Argument checks shared by the copy and fill entry points: bounds against the
// pointer table, pointer-kind inference for hipMemcpyDefault.
#pragma once

#include "api/api.hpp"

#include <weft/driver/op.hpp>

namespace weft::api {

// Fails with hipErrorInvalidValue when [ptr, ptr + bytes) starts inside a tracked
// allocation and runs past its end. Untracked (plain host) memory passes.
Status check_span(const void* ptr, size_t bytes, const char* what);

// Rows of a 2D region: the span from the first byte to the last row's end.
inline size_t span_2d(size_t pitch, size_t width, size_t height) {
  return height == 0 ? 0 : pitch * (height - 1) + width;
}

bool is_device_pointer(const void* ptr);

// The copy direction for a hipMemcpyKind (hipMemcpyDefault is inferred from the
// pointers); hipErrorInvalidMemcpyDirection for values that are not a kind.
Result<CopyDirection> copy_direction(hipMemcpyKind kind, const void* dst, const void* src);

// Builds a checked 2D copy (1D when height is 1).
Result<CopyOp> make_copy(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                         size_t width, size_t height, hipMemcpyKind kind);

// Builds a checked 2D fill.
Result<FillOp> make_fill(void* dst, size_t pitch, uint32_t value, uint8_t element_size,
                         size_t width_elements, size_t height);

// Submits an op on a stream; `sync` waits for the stream afterwards (the
// synchronous API forms).
Status submit_on(hipStream_t stream, Op op, bool sync, bool per_thread = false);

}  // namespace weft::api
