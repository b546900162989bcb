// SPDX-License-Identifier: MIT
// Copies with hipArray sides (every hipMemcpy*Array*, hipMemcpyAtoX/XtoA, and the
// array forms of hipMemcpy3D and hipMemcpyParam2D). A region is width_bytes x
// height x depth; each side is an array or linear memory. Arrays kept in linear
// memory become CopyOps (one per slice, checked before any is submitted, so graph
// capture takes them like any copy); native arrays go to the driver
// (Queue::submit_array_copy).
#pragma once

#include "api/image_objects.hpp"
#include "api/memory_checks.hpp"

#include <vector>

namespace weft::api {

struct RegionSide {
  Ref<hipArray> array;        // an array side, or
  const void* ptr = nullptr;  // linear memory
  Side side = Side::kEither;  //   what the kind says it is
  size_t pitch = 0;           //   bytes per row
  size_t rows = 0;            //   rows per slice (3D copies)
  size_t x_bytes = 0;
  size_t y = 0;
  size_t z = 0;
};

struct CopyCall {
  hipStream_t stream = nullptr;
  Blocking blocking = kSync;
  DefaultStream default_stream = kLegacy;
};

Status copy_region(RegionSide dst, RegionSide src, size_t width_bytes, size_t height, size_t depth,
                   const CopyCall& how);

// The CopyOps of a region whose arrays live in linear memory (graph memcpy nodes);
// hipErrorNotSupported for a native array, which no Op can carry.
Result<std::vector<CopyOp>> plan_region(RegionSide dst, RegionSide src, size_t width_bytes,
                                        size_t height, size_t depth);

// The two sides of a hipMemcpy3DParms with an array: positions and the extent's
// width count elements on array sides (CUDA's rule); returns the width in bytes.
Result<size_t> region_sides(const hipMemcpy3DParms& p, RegionSide& dst, RegionSide& src);

// A side for a hipMemcpyKind's host/device role.
Result<std::pair<Side, Side>> sides_of(hipMemcpyKind kind);

}  // namespace weft::api
