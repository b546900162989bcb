// SPDX-License-Identifier: MIT
// Arrays and mipmapped arrays: hipMallocArray, hipMalloc3DArray, hipArrayCreate,
// hipArray3DCreate, hipMallocMipmappedArray, hipMipmappedArrayCreate, their frees,
// levels and descriptors (image_objects.hpp says what an array is).
#include "api/image_objects.hpp"

using namespace weft;
using namespace weft::api;

namespace {

Result<ArrayShape> shape_of(const hipChannelFormatDesc* desc, size_t width, size_t height,
                            size_t depth, unsigned flags) {
  if (!desc) return invalid_value("null channel descriptor");
  WEFT_ASSIGN_OR_RETURN(auto format, format_of(*desc));
  ArrayShape s;
  s.width = width;
  s.height = height;
  s.depth = depth;
  s.format = format.first;
  s.channels = format.second;
  s.flags = flags;
  return s;
}

Result<ArrayShape> shape_of(const HIP_ARRAY3D_DESCRIPTOR& d) {
  // Checked as an integer first: a value outside the enum may not be loaded as one.
  if (format_bytes(raw_value(d.Format)) == 0)
    return invalid_value(fmt::format("{:#x} is not a hipArray_Format", raw_value(d.Format)));
  ArrayShape s;
  s.width = d.Width;
  s.height = d.Height;
  s.depth = d.Depth;
  s.format = static_cast<hipArray_Format>(raw_value(d.Format));
  s.channels = d.NumChannels;
  s.flags = d.Flags;
  return s;
}

Status make_array(hipArray_t* out, Result<ArrayShape> shape) {
  if (!out) return invalid_value("null array output pointer");
  if (!shape.ok()) return shape.status();
  WEFT_ASSIGN_OR_RETURN(Ref<hipArray> array, create_array(shape.value()));
  *out = array.get();
  return Status();
}

Status make_mipmap(hipMipmappedArray_t* out, Result<ArrayShape> shape, unsigned levels) {
  if (!out) return invalid_value("null mipmapped array output pointer");
  if (!shape.ok()) return shape.status();
  ArrayShape s = shape.value();
  s.levels = levels;
  WEFT_ASSIGN_OR_RETURN(Ref<MipmapObject> mipmap, create_mipmap(s));
  *out = &mipmap->view;
  return Status();
}

Status get_level(hipArray_t* out, hipMipmappedArray_const_t handle, unsigned level) {
  if (!out) return invalid_value("null level output pointer");
  WEFT_ASSIGN_OR_RETURN(Ref<MipmapObject> mipmap, find_mipmap(handle, "mipmapped array"));
  if (level >= mipmap->levels.size())
    return invalid_value(
        fmt::format("level {} of a mipmapped array of {} levels", level, mipmap->levels.size()));
  *out = mipmap->levels[level].get();
  return Status();
}

HIP_ARRAY3D_DESCRIPTOR descriptor_of(const hipArray& a) {
  HIP_ARRAY3D_DESCRIPTOR d{};
  d.Width = a.shape.width;
  d.Height = a.shape.height;
  d.Depth = a.shape.depth;
  d.Format = a.shape.format;
  d.NumChannels = a.shape.channels;
  d.Flags = a.shape.flags;
  return d;
}

}  // namespace

WEFT_EXPORT hipError_t hipMallocArray(hipArray_t* array, const hipChannelFormatDesc* desc,
                                      size_t width, size_t height, unsigned int flags) {
  return call(
      "hipMallocArray",
      [&] {
    if (flags & hipArrayCubemap)
      return invalid_value("hipMallocArray makes 1D and 2D arrays: no hipArrayCubemap");
    if (flags & hipArrayLayered) return invalid_value("a layered array needs hipMalloc3DArray");
    return make_array(array, shape_of(desc, width, height, 0, flags));
      },
      array, desc, width, height, flags);
}

WEFT_EXPORT hipError_t hipMalloc3DArray(hipArray_t* array, const hipChannelFormatDesc* desc,
                                        hipExtent extent, unsigned int flags) {
  return call(
      "hipMalloc3DArray",
      [&] {
    return make_array(array, shape_of(desc, extent.width, extent.height, extent.depth, flags));
      },
      array, desc, extent.width, extent.height, extent.depth, flags);
}

WEFT_EXPORT hipError_t hipArrayCreate(hipArray_t* array, const HIP_ARRAY_DESCRIPTOR* desc) {
  return call(
      "hipArrayCreate",
      [&] {
    if (!desc) return invalid_value("null HIP_ARRAY_DESCRIPTOR");
    HIP_ARRAY3D_DESCRIPTOR d{};
    d.Width = desc->Width;
    d.Height = desc->Height;
    d.Format = desc->Format;
    d.NumChannels = desc->NumChannels;
    return make_array(array, shape_of(d));
      },
      array, desc);
}

WEFT_EXPORT hipError_t hipArray3DCreate(hipArray_t* array, const HIP_ARRAY3D_DESCRIPTOR* desc) {
  return call(
      "hipArray3DCreate",
      [&] {
    if (!desc) return invalid_value("null HIP_ARRAY3D_DESCRIPTOR");
    return make_array(array, shape_of(*desc));
      },
      array, desc);
}

WEFT_EXPORT hipError_t hipFreeArray(hipArray_t array) {
  return call(
      "hipFreeArray", [&] { return destroy_array(array); }, array);
}

WEFT_EXPORT hipError_t hipArrayDestroy(hipArray_t array) {
  return call(
      "hipArrayDestroy", [&] { return destroy_array(array); }, array);
}

WEFT_EXPORT hipError_t hipMallocMipmappedArray(hipMipmappedArray_t* mipmap,
                                               const hipChannelFormatDesc* desc, hipExtent extent,
                                               unsigned int levels, unsigned int flags) {
  return call(
      "hipMallocMipmappedArray",
      [&] {
    return make_mipmap(mipmap, shape_of(desc, extent.width, extent.height, extent.depth, flags),
                       levels);
      },
      mipmap, desc, extent.width, extent.height, extent.depth, levels, flags);
}

WEFT_EXPORT hipError_t hipMipmappedArrayCreate(hipMipmappedArray_t* mipmap,
                                               HIP_ARRAY3D_DESCRIPTOR* desc, unsigned int levels) {
  return call(
      "hipMipmappedArrayCreate",
      [&] {
    if (!desc) return invalid_value("null HIP_ARRAY3D_DESCRIPTOR");
    return make_mipmap(mipmap, shape_of(*desc), levels);
      },
      mipmap, desc, levels);
}

WEFT_EXPORT hipError_t hipFreeMipmappedArray(hipMipmappedArray_t mipmap) {
  return call(
      "hipFreeMipmappedArray", [&] { return destroy_mipmap(mipmap); }, mipmap);
}

WEFT_EXPORT hipError_t hipMipmappedArrayDestroy(hipMipmappedArray_t mipmap) {
  return call(
      "hipMipmappedArrayDestroy", [&] { return destroy_mipmap(mipmap); }, mipmap);
}

WEFT_EXPORT hipError_t hipGetMipmappedArrayLevel(hipArray_t* level,
                                                 hipMipmappedArray_const_t mipmap,
                                                 unsigned int index) {
  return call(
      "hipGetMipmappedArrayLevel", [&] { return get_level(level, mipmap, index); }, level, mipmap,
      index);
}

WEFT_EXPORT hipError_t hipMipmappedArrayGetLevel(hipArray_t* level, hipMipmappedArray_t mipmap,
                                                 unsigned int index) {
  return call(
      "hipMipmappedArrayGetLevel", [&] { return get_level(level, mipmap, index); }, level, mipmap,
      index);
}

WEFT_EXPORT hipError_t hipMipmappedArrayGetMemoryRequirements(
    hipArrayMemoryRequirements* requirements, hipMipmappedArray_t mipmap, hipDevice_t device) {
  return call(
      "hipMipmappedArrayGetMemoryRequirements",
      [&] {
    if (!requirements) return invalid_value("null hipArrayMemoryRequirements");
    WEFT_ASSIGN_OR_RETURN(Ref<MipmapObject> m, find_mipmap(mipmap, "mipmapped array"));
    if (m->device->ordinal() != device)
      return Status(hipErrorInvalidDevice,
                    fmt::format("the mipmapped array lives on device {}, not {}",
                                m->device->ordinal(), device));
    // Only sparse (hipArraySparse) arrays have requirements of their own; weft makes
    // none, so what the levels occupy is the answer.
    size_t total = 0;
    for (const auto& level : m->levels) total += level->slice_bytes() * level->slices();
    *requirements = hipArrayMemoryRequirements{};
    requirements->size = total;
    requirements->alignment = 256;
    return Status();
      },
      requirements, mipmap, device);
}

WEFT_EXPORT hipError_t hipArrayGetInfo(hipChannelFormatDesc* desc, hipExtent* extent,
                                       unsigned int* flags, hipArray_t array) {
  return call(
      "hipArrayGetInfo",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(array, "array", hipErrorInvalidHandle));
    if (desc) *desc = channel_desc_of(a->shape.format, a->shape.channels);
    if (extent) *extent = hipExtent{a->shape.width, a->shape.height, a->shape.depth};
    if (flags) *flags = a->shape.flags;
    return Status();
      },
      desc, extent, flags, array);
}

WEFT_EXPORT hipError_t hipGetChannelDesc(hipChannelFormatDesc* desc, hipArray_const_t array) {
  return call(
      "hipGetChannelDesc",
      [&] {
    if (!desc) return invalid_value("null channel descriptor output");
    WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(array, "array", hipErrorInvalidHandle));
    *desc = channel_desc_of(a->shape.format, a->shape.channels);
    return Status();
      },
      desc, array);
}

WEFT_EXPORT hipError_t hipArrayGetDescriptor(HIP_ARRAY_DESCRIPTOR* desc, hipArray_t array) {
  return call(
      "hipArrayGetDescriptor",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(array, "array", hipErrorInvalidHandle));
    if (!desc) return invalid_value("null HIP_ARRAY_DESCRIPTOR output");
    HIP_ARRAY3D_DESCRIPTOR d = descriptor_of(*a);
    *desc = HIP_ARRAY_DESCRIPTOR{d.Width, d.Height, d.Format, d.NumChannels};
    return Status();
      },
      desc, array);
}

WEFT_EXPORT hipError_t hipArray3DGetDescriptor(HIP_ARRAY3D_DESCRIPTOR* desc, hipArray_t array) {
  return call(
      "hipArray3DGetDescriptor",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(array, "array", hipErrorInvalidHandle));
    if (!desc) return invalid_value("null HIP_ARRAY3D_DESCRIPTOR output");
    *desc = descriptor_of(*a);
    return Status();
      },
      desc, array);
}
