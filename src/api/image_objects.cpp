// SPDX-License-Identifier: MIT
#include "api/image_objects.hpp"

#include "graph/capture.hpp"

#include <bit>

namespace weft::api {

unsigned format_bytes(int format) {
  switch (format) {
    case HIP_AD_FORMAT_UNSIGNED_INT8:
    case HIP_AD_FORMAT_SIGNED_INT8: return 1;
    case HIP_AD_FORMAT_UNSIGNED_INT16:
    case HIP_AD_FORMAT_SIGNED_INT16:
    case HIP_AD_FORMAT_HALF: return 2;
    case HIP_AD_FORMAT_UNSIGNED_INT32:
    case HIP_AD_FORMAT_SIGNED_INT32:
    case HIP_AD_FORMAT_FLOAT: return 4;
    default: return 0;
  }
}

Result<std::pair<hipArray_Format, unsigned>> format_of(const hipChannelFormatDesc& desc) {
  const int bits[4] = {desc.x, desc.y, desc.z, desc.w};
  unsigned channels = 0;
  while (channels < 4 && bits[channels] != 0) ++channels;
  for (unsigned c = channels; c < 4; ++c)
    if (bits[c] != 0)
      return invalid_value(
          fmt::format("channel descriptor {{{}, {}, {}, {}}} leaves a gap between channels", desc.x,
                      desc.y, desc.z, desc.w));
  if (channels == 0 || channels == 3)
    return invalid_value(
        fmt::format("a channel descriptor needs 1, 2 or 4 channels, not {}", channels));
  for (unsigned c = 1; c < channels; ++c)
    if (bits[c] != bits[0])
      return invalid_value(fmt::format(
          "channels of {} and {} bits: every channel must have the same size", bits[0], bits[c]));
  int kind = raw_value(desc.f);
  hipArray_Format format;
  switch (kind) {
    case hipChannelFormatKindUnsigned:
    case hipChannelFormatKindSigned: {
      bool is_signed = kind == hipChannelFormatKindSigned;
      if (bits[0] == 8)
        format = is_signed ? HIP_AD_FORMAT_SIGNED_INT8 : HIP_AD_FORMAT_UNSIGNED_INT8;
      else if (bits[0] == 16)
        format = is_signed ? HIP_AD_FORMAT_SIGNED_INT16 : HIP_AD_FORMAT_UNSIGNED_INT16;
      else if (bits[0] == 32)
        format = is_signed ? HIP_AD_FORMAT_SIGNED_INT32 : HIP_AD_FORMAT_UNSIGNED_INT32;
      else return invalid_value(fmt::format("integer channels of {} bits (8, 16 or 32)", bits[0]));
      break;
    }
    case hipChannelFormatKindFloat:
      if (bits[0] == 16) format = HIP_AD_FORMAT_HALF;
      else if (bits[0] == 32) format = HIP_AD_FORMAT_FLOAT;
      else return invalid_value(fmt::format("float channels of {} bits (16 or 32)", bits[0]));
      break;
    default:
      return invalid_value(
          fmt::format("channel format kind {} is not signed, unsigned or float", kind));
  }
  return std::pair{format, channels};
}

hipChannelFormatDesc channel_desc_of(hipArray_Format format, unsigned channels) {
  int bits = static_cast<int>(format_bytes(format) * 8);
  hipChannelFormatKind kind = format == HIP_AD_FORMAT_HALF || format == HIP_AD_FORMAT_FLOAT
                                ? hipChannelFormatKindFloat
                            : format >= HIP_AD_FORMAT_SIGNED_INT8 ? hipChannelFormatKindSigned
                                                                  : hipChannelFormatKindUnsigned;
  hipChannelFormatDesc d{};
  d.x = bits;
  d.y = channels >= 2 ? bits : 0;
  d.z = channels >= 4 ? bits : 0;
  d.w = channels >= 4 ? bits : 0;
  d.f = kind;
  return d;
}

// The registries live as long as the process: objects still in
// them at exit free their storage through their device, which static destruction
// may already have taken down.
ObjectMap<hipArray>& arrays() {
  static auto* map = new ObjectMap<hipArray>;  // never destroyed (above)
  return *map;
}
ObjectMap<MipmapObject>& mipmaps() {
  static auto* map = new ObjectMap<MipmapObject>;  // never destroyed (above)
  return *map;
}
ObjectMap<TextureObject>& textures() {
  static auto* map = new ObjectMap<TextureObject>;  // never destroyed (above)
  return *map;
}
ObjectMap<SurfaceObject>& surfaces() {
  static auto* map = new ObjectMap<SurfaceObject>;  // never destroyed (above)
  return *map;
}

Result<Ref<hipArray>> find_array(hipArray_const_t handle, const char* what, hipError_t error) {
  if (!handle) return Status(error, fmt::format("null {}", what));
  Ref<hipArray> array = arrays().find(handle);
  if (!array)
    return Status(error,
                  fmt::format("{} {} is not a live array (freed, or never made by hipMallocArray, "
                              "hipArrayCreate or a mipmap)",
                              what, static_cast<const void*>(handle)));
  return array;
}

Result<Ref<MipmapObject>> find_mipmap(hipMipmappedArray_const_t handle, const char* what,
                                      hipError_t error) {
  if (!handle) return Status(error, fmt::format("null {}", what));
  Ref<MipmapObject> mipmap = mipmaps().find(handle);
  if (!mipmap)
    return Status(error, fmt::format("{} {} is not a live mipmapped array", what,
                                     static_cast<const void*>(handle)));
  return mipmap;
}

namespace {

constexpr unsigned kArrayFlags =
    hipArrayLayered | hipArraySurfaceLoadStore | hipArrayCubemap | hipArrayTextureGather;

Status check_shape(const ArrayShape& s) {
  if (format_bytes(s.format) == 0)
    return invalid_value(fmt::format("{:#x} is not a hipArray_Format", static_cast<int>(s.format)));
  if (s.channels != 1 && s.channels != 2 && s.channels != 4)
    return invalid_value(fmt::format("{} channels (1, 2 or 4)", s.channels));
  if (s.flags & ~kArrayFlags)
    return invalid_value(fmt::format("unknown array flags {:#x}", s.flags));
  if (s.width == 0) return invalid_value("an array's width must not be 0");
  const bool layered = s.flags & hipArrayLayered, cube = s.flags & hipArrayCubemap;
  if (s.height == 0 && s.depth != 0 && !layered)
    return invalid_value(
        "a 3D array needs a height (a depth without one is a 1D layered array: hipArrayLayered)");
  if (layered && s.depth == 0)
    return invalid_value("a layered array needs its layer count as the depth");
  if (cube) {
    if (s.width != s.height)
      return invalid_value("a cubemap's faces must be square (width == height)");
    if (layered ? s.depth % 6 != 0 : s.depth != 6)
      return invalid_value(fmt::format("a cubemap{} has {} slices: the depth must be {}",
                                       layered ? " array" : "", s.depth,
                                       layered ? "a multiple of 6" : "6"));
  }
  // The software sampler indexes with 32-bit sizes; GPUs' limits are far lower.
  constexpr size_t kMaxDim = size_t{1} << 30;
  if (s.width > kMaxDim || s.height > kMaxDim || s.depth > kMaxDim)
    return invalid_value(
        fmt::format("array extent {} x {} x {} exceeds the limit of {} per dimension", s.width,
                    s.height, s.depth, kMaxDim));
  if (s.levels == 0) return invalid_value("a mipmapped array needs at least one level");
  size_t largest = std::max({s.width, s.height, layered ? size_t{0} : s.depth});
  unsigned max_levels = static_cast<unsigned>(std::bit_width(largest));
  if (s.levels > max_levels || s.levels > WEFT_IMAGE_MAX_LEVELS)
    return invalid_value(fmt::format("{} levels for an extent of {}: at most {}", s.levels, largest,
                                     std::min<unsigned>(max_levels, WEFT_IMAGE_MAX_LEVELS)));
  return Status();
}

// A linear array of `shape` (levels ignored) on `device`.
Result<Ref<hipArray>> linear_array(DeviceState* device, const ArrayShape& shape) {
  Ref<hipArray> array = make_ref<hipArray>();
  array->device = device;
  array->shape = shape;
  array->shape.levels = 1;
  size_t bytes = 0;
  if (__builtin_mul_overflow(array->slice_bytes(), array->slices(), &bytes) || bytes == 0)
    return Status(hipErrorOutOfMemory, "the array's size overflows");
  WEFT_ASSIGN_OR_RETURN(array->data,
                        device->driver_device().allocate(MemoryKind::kDevice, bytes, 0));
  array->bytes = bytes;
  return array;
}

}  // namespace

ArrayShape level_shape(const ArrayShape& base, unsigned level) {
  ArrayShape s = base;
  s.levels = 1;
  auto shrink = [&](size_t v) { return v == 0 ? 0 : std::max<size_t>(1, v >> level); };
  s.width = shrink(base.width);
  s.height = shrink(base.height);
  if (!(base.flags & hipArrayLayered)) s.depth = shrink(base.depth);
  return s;
}

Result<Ref<hipArray>> create_array(const ArrayShape& shape) {
  WEFT_RETURN_IF_ERROR(check_shape(shape));
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  auto native = device->driver_device().create_array(shape);
  Ref<hipArray> array;
  if (native.ok()) {
    array = make_ref<hipArray>();
    array->device = device;
    array->shape = shape;
    array->native = std::move(native).value();
  } else if (native.status().code() == hipErrorNotSupported) {
    WEFT_ASSIGN_OR_RETURN(array, linear_array(device, shape));
  } else {
    return native.status();
  }
  arrays().add(array.get(), array);
  return array;
}

Result<Ref<MipmapObject>> create_mipmap(const ArrayShape& shape) {
  WEFT_RETURN_IF_ERROR(check_shape(shape));
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  Ref<MipmapObject> mipmap = make_ref<MipmapObject>();
  mipmap->device = device;
  mipmap->shape = shape;
  auto native = device->driver_device().create_array(shape);
  if (native.ok()) mipmap->native = std::move(native).value();
  else if (native.status().code() != hipErrorNotSupported) return native.status();
  for (unsigned l = 0; l < shape.levels; ++l) {
    Ref<hipArray> level;
    if (mipmap->native) {
      level = make_ref<hipArray>();
      level->device = device;
      level->shape = level_shape(shape, l);
      WEFT_ASSIGN_OR_RETURN(level->native, mipmap->native->level(l));
    } else {
      WEFT_ASSIGN_OR_RETURN(level, linear_array(device, level_shape(shape, l)));
    }
    mipmap->levels.push_back(level);
  }
  hipMipmappedArray& v = mipmap->view;
  v.data = mipmap->levels[0]->data;
  v.desc = channel_desc_of(shape.format, shape.channels);
  v.type = shape.depth && !(shape.flags & hipArrayLayered) ? hipTextureType3D
         : shape.height                                    ? hipTextureType2D
                                                           : hipTextureType1D;
  v.width = static_cast<unsigned>(shape.width);
  v.height = static_cast<unsigned>(shape.height);
  v.depth = static_cast<unsigned>(shape.depth);
  v.min_mipmap_level = 0;
  v.max_mipmap_level = shape.levels - 1;
  v.flags = shape.flags;
  v.format = shape.format;
  v.num_channels = shape.channels;
  // Levels are arrays for copies and hipGetMipmappedArrayLevel; they stay the mipmap's.
  for (auto& level : mipmap->levels) {
    level->mipmap_level = true;
    arrays().add(level.get(), level);
  }
  mipmaps().add(&mipmap->view, mipmap);
  return mipmap;
}

Status destroy_array(hipArray_t handle) {
  if (!handle) return invalid_value("null array");
  WEFT_RETURN_IF_ERROR(graph::check_unsafe("freeing an array"));
  WEFT_ASSIGN_OR_RETURN(Ref<hipArray> array, find_array(handle, "array"));
  if (array->mipmap_level)
    return invalid_value(
        "the array is a level of a mipmapped array: free the mipmapped array instead");
  // Like hipFree: queued work may still read or write the array.
  WEFT_RETURN_IF_ERROR(array->device->synchronize());
  if (!arrays().remove(handle)) return invalid_value("the array was freed concurrently");
  return Status();
}

Status destroy_mipmap(hipMipmappedArray_t handle) {
  if (!handle) return invalid_value("null mipmapped array");
  WEFT_RETURN_IF_ERROR(graph::check_unsafe("freeing a mipmapped array"));
  WEFT_ASSIGN_OR_RETURN(Ref<MipmapObject> mipmap, find_mipmap(handle, "mipmapped array"));
  WEFT_RETURN_IF_ERROR(mipmap->device->synchronize());
  if (!mipmaps().remove(handle)) return invalid_value("the mipmapped array was freed concurrently");
  for (auto& level : mipmap->levels) arrays().remove(level.get());
  return Status();
}

weftImageLevel image_level(const hipArray& array) {
  weftImageLevel l{};
  l.data = static_cast<unsigned char*>(array.data);
  l.width = static_cast<uint32_t>(array.shape.width);
  l.height = static_cast<uint32_t>(array.rows());
  l.depth = static_cast<uint32_t>(array.slices());
  l.row_pitch = array.row_bytes();
  l.slice_pitch = array.slice_bytes();
  return l;
}

}  // namespace weft::api

hipArray::~hipArray() {
  if (data && device)
    (void)device->driver_device().deallocate(data, bytes, weft::MemoryKind::kDevice);
}
