// SPDX-License-Identifier: MIT
// Async copies that touch pageable host memory (plain malloc/new/stack memory,
// which the pointer table does not know) on the CPU agent. HIP and CUDA define
// them as synchronous with respect to that host buffer: a pageable source may be
// reused or freed as soon as the call returns, and a pageable destination holds
// the data when it returns. Pinned and registered memory stays fully async.
#pragma once

#include "api/api.hpp"

#include <weft/driver/op.hpp>

namespace weft::api {

// submit_on for copies: an async copy with a pageable source copies it into a
// staging buffer first (the call returns once the source was read; a host op
// queued after the copy frees the buffer), one with a pageable destination waits
// for the copy. No change on other agents (their drivers stage), for synchronous
// calls, or while a stream captures (graph nodes read memory when the graph runs).
Status submit_copy(hipStream_t stream, CopyOp op, Blocking blocking,
                   DefaultStream default_stream = kLegacy);

}  // namespace weft::api
