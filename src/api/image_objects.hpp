// SPDX-License-Identifier: MIT
// The core's arrays, mipmapped arrays, texture and surface objects
// (docs/textures.md).
//
// An array lives on one device. Where the driver has native arrays
// (Device::create_array: CUDA) it is the driver's NativeArray; elsewhere it is
// linear device memory the core allocated, rows packed and slices stacked, that
// copies reach with plain CopyOps and the CPU agent's software sampler reads.
// Handles are the objects' addresses, looked up in registries, so a freed or
// made-up handle is an error, not a crash. Texture and surface objects hold a
// reference to what they read, so freeing an array under a live object leaves
// the object reading valid (if stale) memory instead of freed memory.
#pragma once

#include "api/api.hpp"

#include <hip/weft/texture_fetch.h>
#include <weft/driver/image.hpp>

#include <memory>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace weft::api {

// Bytes per channel of an element format; 0 for values that are not a format.
unsigned format_bytes(int format);
// The element format of a channel descriptor (every used channel has the same
// size; 1, 2 or 4 channels), or hipErrorInvalidValue.
Result<std::pair<hipArray_Format, unsigned>> format_of(const hipChannelFormatDesc& desc);
// A channel descriptor for an element format.
hipChannelFormatDesc channel_desc_of(hipArray_Format format, unsigned channels);

}  // namespace weft::api

// The definition behind the opaque hipArray_t.
struct hipArray final : weft::RefCounted {
  weft::DeviceState* device = nullptr;
  weft::ArrayShape shape;  // levels is 1: a mipmap's levels are arrays of their own
  // Linear storage (no native arrays): rows of row_bytes() packed, slices stacked.
  void* data = nullptr;
  size_t bytes = 0;
  weft::Ref<weft::NativeArray> native;
  bool mipmap_level = false;  // freed with its mipmapped array, not by hipFreeArray

  size_t texel_bytes() const { return weft::api::format_bytes(shape.format) * shape.channels; }
  size_t row_bytes() const { return shape.width * texel_bytes(); }
  size_t rows() const { return shape.height ? shape.height : 1; }
  size_t slices() const { return shape.depth ? shape.depth : 1; }
  size_t slice_bytes() const { return row_bytes() * rows(); }
  ~hipArray() override;
};

namespace weft::api {

// A mipmapped array: the public struct (handles point at `view`) and its levels.
struct MipmapObject final : RefCounted {
  hipMipmappedArray view{};
  DeviceState* device = nullptr;
  ArrayShape shape;  // level 0, levels = the level count
  std::vector<Ref<hipArray>> levels;
  Ref<NativeArray> native;
};

struct TextureObject final : RefCounted {
  weftImage image{};  // the CPU agent's handle points here
  DeviceState* device = nullptr;
  uint64_t native = 0;  // the driver's handle, where the driver made the object
  hipResourceDesc resource{};
  hipTextureDesc texture{};
  bool has_view = false;
  hipResourceViewDesc view{};
  ArrayShape shape;                         // of what it reads (level 0)
  unsigned levels = 1;                      // of a mipmapped array
  std::vector<Ref<RefCounted>> keep_alive;  // arrays / mipmaps it reads
};

struct SurfaceObject final : RefCounted {
  weftImage image{};
  DeviceState* device = nullptr;
  uint64_t native = 0;
  hipResourceDesc resource{};
  Ref<hipArray> array;
};

// Handle → object maps keyed by the handle value. Thread-safe; leaves in the
// lock order.
template <typename T>
class ObjectMap {
 public:
  void add(const void* key, Ref<T> object) {
    std::unique_lock lock(mutex_);
    objects_[key] = std::move(object);
  }
  Ref<T> find(const void* key) const {
    std::shared_lock lock(mutex_);
    auto it = objects_.find(key);
    return it == objects_.end() ? Ref<T>() : it->second;
  }
  Ref<T> remove(const void* key) {
    std::unique_lock lock(mutex_);
    auto it = objects_.find(key);
    if (it == objects_.end()) return Ref<T>();
    Ref<T> object = std::move(it->second);
    objects_.erase(it);
    return object;
  }

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<const void*, Ref<T>> objects_;
};

ObjectMap<hipArray>& arrays();
ObjectMap<MipmapObject>& mipmaps();
ObjectMap<TextureObject>& textures();
ObjectMap<SurfaceObject>& surfaces();

// A live array handle, or hipErrorInvalidValue (HIP's answer to a bad array; AMD
// returns the same for a null one).
// The query functions (hipArrayGetInfo...) answer hipErrorInvalidHandle instead.
Result<Ref<hipArray>> find_array(hipArray_const_t handle, const char* what,
                                 hipError_t error = hipErrorInvalidValue);
Result<Ref<MipmapObject>> find_mipmap(hipMipmappedArray_const_t handle, const char* what,
                                      hipError_t error = hipErrorInvalidValue);

// Checks a driver-style 3D descriptor and allocates an array of it on the current
// device (levels > 1: a mipmapped array, returned through `mipmap`).
Result<Ref<hipArray>> create_array(const ArrayShape& shape);
Result<Ref<MipmapObject>> create_mipmap(const ArrayShape& shape);
// The shape of level `level` of a mipmap whose level 0 is `base`.
ArrayShape level_shape(const ArrayShape& base, unsigned level);

// Frees an array made by hipMallocArray / hipArrayCreate (not a mipmap level).
Status destroy_array(hipArray_t handle);
Status destroy_mipmap(hipMipmappedArray_t handle);

// What a weftImage level of an array looks like.
weftImageLevel image_level(const hipArray& array);

}  // namespace weft::api
