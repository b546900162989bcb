// SPDX-License-Identifier: MIT
// Arrays, textures and surfaces an agent keeps in its own formats (CUDA arrays,
// CUtexObject, CUsurfObject): the optional part of the driver contract behind
// hipMallocArray, hipCreateTextureObject and hipCreateSurfaceObject.
//
// An agent without native arrays (Device::create_array answers
// hipErrorNotSupported) gets arrays the core keeps in linear device memory, copied
// with plain CopyOps; the CPU agent samples those in software (docs/textures.md).
#pragma once

#include <hip/hip_runtime_api.h>
#include <weft/driver/ref.hpp>
#include <weft/driver/status.hpp>

#include <cstddef>
#include <cstdint>

namespace weft {

// The shape of an array as the driver API describes it (HIP_ARRAY3D_DESCRIPTOR):
// height and depth are 0 for the dimensions an array does not have; `levels` is
// 1 for a plain array and the level count of a mipmapped one.
struct ArrayShape {
  size_t width = 0;
  size_t height = 0;
  size_t depth = 0;
  hipArray_Format format = HIP_AD_FORMAT_FLOAT;
  unsigned channels = 1;
  unsigned flags = 0;  // hipArrayLayered, hipArrayCubemap, hipArraySurfaceLoadStore, ...
  unsigned levels = 1;
};

// A driver's array (one level of a mipmapped array is an array too). Immutable.
class NativeArray : public RefCounted {
 public:
  // The vendor's handle (CUarray, CUmipmappedArray), for the driver's own calls.
  virtual uint64_t handle() const = 0;
  // Level `level` of a mipmapped array (levels > 1), which it keeps alive.
  virtual Result<Ref<NativeArray>> level(unsigned level) {
    (void)level;
    return Status(hipErrorInvalidValue, "not a mipmapped array");
  }
};

// One side of an array copy: an array, or linear memory (host or device).
struct ArrayCopySide {
  Ref<NativeArray> array;  // set: an array side
  void* ptr = nullptr;     // else: linear memory
  bool device = false;     //   device (true) or host memory
  size_t pitch = 0;        //   bytes per row
  size_t rows = 0;         //   rows per slice
  size_t x_bytes = 0;      // start of the region
  size_t y = 0;
  size_t z = 0;
};

// A 3D copy of width_bytes x height x depth with at least one array side. The
// core checked both sides' bounds.
struct ArrayCopyOp {
  ArrayCopySide dst;
  ArrayCopySide src;
  size_t width_bytes = 0;
  size_t height = 1;
  size_t depth = 1;
};

// What a native texture or surface object reads.
struct NativeResource {
  hipResourceType type = hipResourceTypeArray;
  Ref<NativeArray> array;  // hipResourceTypeArray / hipResourceTypeMipmappedArray
  void* ptr = nullptr;     // hipResourceTypeLinear / hipResourceTypePitch2D (device memory)
  hipArray_Format format = HIP_AD_FORMAT_FLOAT;
  unsigned channels = 1;
  size_t bytes = 0;  // linear
  size_t width = 0;  // pitch 2D, in elements
  size_t height = 0;
  size_t pitch = 0;
};

struct NativeTexture {
  NativeResource resource;
  hipTextureDesc texture{};
  bool has_view = false;
  hipResourceViewDesc view{};
};

}  // namespace weft
