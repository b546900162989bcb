// SPDX-License-Identifier: MIT
#include "api/pageable_copy.hpp"

#include "api/memory_checks.hpp"
#include "graph/capture.hpp"

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

namespace weft::api {
namespace {

bool is_pageable(const void* ptr) { return !Runtime::get().pointers().find(ptr); }

bool reads_host(CopyDirection d) {
  return d == CopyDirection::kHostToDevice || d == CopyDirection::kHostToHost;
}
bool writes_host(CopyDirection d) {
  return d == CopyDirection::kDeviceToHost || d == CopyDirection::kHostToHost;
}

}  // namespace

Status submit_copy(hipStream_t stream, CopyOp op, Blocking blocking, DefaultStream default_stream) {
  // Synchronous copies, empty ones and captures need no staging: no pointer lookups for them.
  if (blocking == kSync || op.width == 0 || op.height == 0 || graph::capture_active())
    return submit_on(stream, op, blocking, default_stream);
  const bool pageable_src = reads_host(op.direction) && is_pageable(op.src);
  const bool pageable_dst = writes_host(op.direction) && is_pageable(op.dst);
  if (!pageable_src && !pageable_dst) return submit_on(stream, op, blocking, default_stream);
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  if (s->device().driver_device().kind() != AgentKind::kCpu)
    return submit_on(stream, op, blocking, default_stream);
  // Waiting covers a pageable source too: the copy has run when the call returns.
  if (pageable_dst) return submit_on(stream, op, kSync, default_stream);
  const std::optional<size_t> span = span_2d(op.src_pitch, op.width, op.height);
  if (!span) return invalid_value("the copy's source span overflows size_t");
  const size_t bytes = *span;
  std::shared_ptr<std::byte[]> staging(new (std::nothrow) std::byte[bytes]);
  if (!staging)
    return submit_on(stream, op, kSync, default_stream);  // no memory to stage: wait instead
  std::memcpy(staging.get(), op.src, bytes);
  op.src = staging.get();
  WEFT_RETURN_IF_ERROR(submit_on(stream, op, kAsync, default_stream));
  // Ops run in order, so this one frees the buffer after the copy read it.
  Status released = submit_on(stream, HostFuncOp{[staging] {}}, kAsync, default_stream);
  if (!released.ok()) (void)s->synchronize();  // the copy must be done before the buffer goes
  return released;
}

}  // namespace weft::api
