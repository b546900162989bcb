// SPDX-License-Identifier: MIT
// Texture objects: hipCreateTextureObject, hipDestroyTextureObject,
// hipGetTextureObject*, and the driver-style hipTexObject* forms
// (docs/textures.md).
#include "api/memory_checks.hpp"
#include "api/texture_objects.hpp"

#include "graph/capture.hpp"

using namespace weft;
using namespace weft::api;

namespace weft::api {
namespace {

// Texels a linear resource may hold on the software sampler (its extents are 32-bit).
constexpr size_t kMaxLinearTexels = size_t{1} << 30;

// (format, channels) of a resource view format; channels 0 for None and the
// block-compressed formats.
std::pair<hipArray_Format, unsigned> view_format(int f) {
  static constexpr hipArray_Format kFormats[] = {
      HIP_AD_FORMAT_UNSIGNED_INT8, HIP_AD_FORMAT_SIGNED_INT8,    HIP_AD_FORMAT_UNSIGNED_INT16,
      HIP_AD_FORMAT_SIGNED_INT16,  HIP_AD_FORMAT_UNSIGNED_INT32, HIP_AD_FORMAT_SIGNED_INT32,
      HIP_AD_FORMAT_HALF,          HIP_AD_FORMAT_FLOAT};
  static constexpr unsigned kChannels[] = {1, 2, 4};
  if (f < hipResViewFormatUnsignedChar1 || f > hipResViewFormatFloat4)
    return {HIP_AD_FORMAT_FLOAT, 0};
  return {kFormats[(f - 1) / 3], kChannels[(f - 1) % 3]};
}

Status check_texture_desc(const hipTextureDesc& t) {
  for (int d = 0; d < 3; ++d) {
    int mode = raw_value(t.addressMode[d]);
    if (mode < hipAddressModeWrap || mode > hipAddressModeBorder)
      return invalid_value(
          fmt::format("addressMode[{}] {} is not a hipTextureAddressMode", d, mode));
  }
  int filter = raw_value(t.filterMode), mip_filter = raw_value(t.mipmapFilterMode),
      read = raw_value(t.readMode);
  if (filter != hipFilterModePoint && filter != hipFilterModeLinear)
    return invalid_value(fmt::format("filterMode {} is not a hipTextureFilterMode", filter));
  if (mip_filter != hipFilterModePoint && mip_filter != hipFilterModeLinear)
    return invalid_value(
        fmt::format("mipmapFilterMode {} is not a hipTextureFilterMode", mip_filter));
  if (read != hipReadModeElementType && read != hipReadModeNormalizedFloat)
    return invalid_value(fmt::format("readMode {} is not a hipTextureReadMode", read));
  return Status();
}

// What the resource description names, checked, with the arrays it reads.
struct ResolvedResource {
  NativeResource native;
  std::vector<Ref<hipArray>> levels;  // arrays: one; mipmaps: every level
  Ref<MipmapObject> mipmap;
  ArrayShape shape;  // of level 0
};

Result<ResolvedResource> resolve(const hipResourceDesc& r, DeviceState& device) {
  ResolvedResource out;
  switch (raw_value(r.resType)) {
    case hipResourceTypeArray: {
      WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(r.res.array.array, "res.array.array"));
      out.shape = a->shape;
      out.native.array = a->native;
      out.levels.push_back(a);
      break;
    }
    case hipResourceTypeMipmappedArray: {
      WEFT_ASSIGN_OR_RETURN(out.mipmap, find_mipmap(r.res.mipmap.mipmap, "res.mipmap.mipmap"));
      out.shape = out.mipmap->shape;
      out.native.array = out.mipmap->native;
      out.levels = out.mipmap->levels;
      break;
    }
    case hipResourceTypeLinear:
    case hipResourceTypePitch2D: {
      const bool linear = raw_value(r.resType) == hipResourceTypeLinear;
      void* ptr = linear ? r.res.linear.devPtr : r.res.pitch2D.devPtr;
      WEFT_ASSIGN_OR_RETURN(auto format,
                            format_of(linear ? r.res.linear.desc : r.res.pitch2D.desc));
      const size_t texel = format_bytes(format.first) * format.second;
      const size_t align = device.props().textureAlignment ? device.props().textureAlignment : 1;
      if (!ptr) return invalid_value("null devPtr");
      if (reinterpret_cast<uintptr_t>(ptr) % align)
        return invalid_value(
            fmt::format("devPtr {} is not aligned to textureAlignment ({} bytes)", ptr, align));
      out.native.ptr = ptr;
      out.native.format = format.first;
      out.native.channels = format.second;
      out.shape.format = format.first;
      out.shape.channels = format.second;
      size_t bytes = 0;
      if (linear) {
        bytes = r.res.linear.sizeInBytes;
        if (bytes == 0 || bytes % texel)
          return invalid_value(fmt::format(
              "sizeInBytes {} is not a positive multiple of the {}-byte element", bytes, texel));
        if (bytes / texel > kMaxLinearTexels)
          return invalid_value(
              fmt::format("{} elements exceed the limit of {}", bytes / texel, kMaxLinearTexels));
        out.native.bytes = bytes;
        out.shape.width = bytes / texel;
      } else {
        const auto& p = r.res.pitch2D;
        const size_t pitch_align =
            device.props().texturePitchAlignment ? device.props().texturePitchAlignment : 1;
        if (p.width == 0 || p.height == 0)
          return invalid_value("a pitch2D resource needs a width and a height");
        if (p.width > kMaxLinearTexels || p.height > kMaxLinearTexels)
          return invalid_value(fmt::format("pitch2D extent {} x {} exceeds {}", p.width, p.height,
                                           kMaxLinearTexels));
        if (p.pitchInBytes % pitch_align)
          return invalid_value(
              fmt::format("pitchInBytes {} is not a multiple of texturePitchAlignment ({})",
                          p.pitchInBytes, pitch_align));
        if (p.pitchInBytes / texel < p.width)
          return invalid_value(
              fmt::format("pitchInBytes {} is less than width {} elements of {} bytes",
                          p.pitchInBytes, p.width, texel));
        auto span = span_2d(p.pitchInBytes, p.width * texel, p.height);
        if (!span) return invalid_value("the pitch2D resource overflows");
        bytes = *span;
        out.native.width = p.width;
        out.native.height = p.height;
        out.native.pitch = p.pitchInBytes;
        out.shape.width = p.width;
        out.shape.height = p.height;
      }
      WEFT_RETURN_IF_ERROR(check_span(ptr, bytes, Side::kDevice, "devPtr", Access::kRead));
      break;
    }
    default:
      return invalid_value(
          fmt::format("resType {} is not a hipResourceType", raw_value(r.resType)));
  }
  out.native.type =
      static_cast<hipResourceType>(raw_value(r.resType));  // one of the four, checked above
  for (const auto& level : out.levels)
    if (level->device != &device)
      return invalid_value(fmt::format("the array lives on device {}, not the current device {}",
                                       level->device->ordinal(), device.ordinal()));
  return out;
}

// Fills the software sampler's descriptor.
Status fill_image(weftImage& img, const ResolvedResource& res, const hipResourceDesc& r,
                  const hipTextureDesc* t, const hipResourceViewDesc* view) {
  img.magic = WEFT_IMAGE_MAGIC;
  img.version = WEFT_IMAGE_VERSION;
  img.resource = static_cast<uint32_t>(raw_value(r.resType));
  const ArrayShape& s = res.shape;
  img.format = s.format;
  img.channels = s.channels;
  img.layered = (s.flags & hipArrayLayered) ? 1 : 0;
  img.cubemap = (s.flags & hipArrayCubemap) ? 1 : 0;
  img.dimensions = img.cubemap ? 2 : (s.depth && !img.layered) ? 3 : s.height ? 2 : 1;
  if (!res.levels.empty()) {
    for (size_t l = 0; l < res.levels.size(); ++l) img.levels[l] = image_level(*res.levels[l]);
    img.num_levels = static_cast<uint32_t>(res.levels.size());
  } else {
    weftImageLevel& l = img.levels[0];
    l.data = static_cast<unsigned char*>(res.native.ptr);
    l.width = static_cast<uint32_t>(s.width);
    l.height = s.height ? static_cast<uint32_t>(s.height) : 1;
    l.depth = 1;
    l.row_pitch = raw_value(r.resType) == hipResourceTypePitch2D
                    ? r.res.pitch2D.pitchInBytes
                    : s.width * format_bytes(s.format) * s.channels;
    l.slice_pitch = l.row_pitch * l.height;
    img.num_levels = 1;
  }
  img.texel_bytes = format_bytes(img.format) * img.channels;
  img.first_layer = 0;
  img.last_layer = img.layered ? img.levels[0].depth / (img.cubemap ? 6 : 1) - 1 : 0;
  if (view) {
    auto [format, channels] = view_format(raw_value(view->format));
    if (raw_value(view->format) != hipResViewFormatNone) {
      if (channels == 0)
        return Status(hipErrorNotSupported, "block-compressed view formats are not supported");
      if (format_bytes(format) * channels != img.texel_bytes)
        return invalid_value(
            fmt::format("the view's {}-byte elements do not match the resource's {}-byte ones",
                        format_bytes(format) * channels, img.texel_bytes));
      img.format = format;
      img.channels = channels;
    }
    if (view->lastMipmapLevel < view->firstMipmapLevel || view->lastMipmapLevel >= img.num_levels)
      return invalid_value(fmt::format("view levels {}..{} of a resource with {}",
                                       view->firstMipmapLevel, view->lastMipmapLevel,
                                       img.num_levels));
    if (view->firstMipmapLevel) {
      for (uint32_t l = view->firstMipmapLevel; l <= view->lastMipmapLevel; ++l)
        img.levels[l - view->firstMipmapLevel] = img.levels[l];
    }
    img.num_levels = view->lastMipmapLevel - view->firstMipmapLevel + 1;
    if (img.layered) {
      if (view->lastLayer < view->firstLayer || view->lastLayer > img.last_layer)
        return invalid_value(fmt::format("view layers {}..{} of a resource with {}",
                                         view->firstLayer, view->lastLayer, img.last_layer + 1));
      img.first_layer = view->firstLayer;
      img.last_layer = view->lastLayer;
    }
  }
  if (t) {
    for (int d = 0; d < 3; ++d) img.address_mode[d] = raw_value(t->addressMode[d]);
    img.filter_mode = raw_value(t->filterMode);
    img.read_mode = raw_value(t->readMode);
    img.normalized_coords = t->normalizedCoords != 0;
    img.srgb = t->sRGB != 0;
    img.mipmap_filter_mode = raw_value(t->mipmapFilterMode);
    for (int c = 0; c < 4; ++c) img.border_color[c] = t->borderColor[c];
    img.mipmap_level_bias = t->mipmapLevelBias;
    img.min_mipmap_level_clamp = t->minMipmapLevelClamp;
    img.max_mipmap_level_clamp = t->maxMipmapLevelClamp;
  }
  return Status();
}

}  // namespace

hipTextureObject_t handle_of(const TextureObject& object) {
  if (object.native)
    return reinterpret_cast<hipTextureObject_t>(static_cast<uintptr_t>(object.native));
  return reinterpret_cast<hipTextureObject_t>(const_cast<weftImage*>(&object.image));
}

Result<Ref<TextureObject>> create_texture(const hipResourceDesc& resource,
                                          const hipTextureDesc& texture,
                                          const hipResourceViewDesc* view) {
  WEFT_RETURN_IF_ERROR(check_texture_desc(texture));
  int type = raw_value(resource.resType);
  if (view && type != hipResourceTypeArray && type != hipResourceTypeMipmappedArray)
    return invalid_value("a resource view applies only to arrays and mipmapped arrays");
  if (type == hipResourceTypeMipmappedArray && !texture.normalizedCoords)
    return invalid_value(
        "a mipmapped array is sampled with normalized coordinates (normalizedCoords = 1)");
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  WEFT_ASSIGN_OR_RETURN(ResolvedResource res, resolve(resource, *device));
  const bool integer32 = res.shape.format == HIP_AD_FORMAT_UNSIGNED_INT32 ||
                         res.shape.format == HIP_AD_FORMAT_SIGNED_INT32;
  if (integer32 && raw_value(texture.readMode) == hipReadModeNormalizedFloat)
    return invalid_value(
        "32-bit integer texels have no normalized form: use hipReadModeElementType");
  Ref<TextureObject> object = make_ref<TextureObject>();
  object->device = device;
  object->resource = resource;
  object->texture = texture;
  object->has_view = view != nullptr;
  if (view) object->view = *view;
  object->shape = res.shape;
  object->levels = res.levels.empty() ? 1 : static_cast<unsigned>(res.levels.size());
  for (const auto& level : res.levels) object->keep_alive.push_back(level);
  if (res.mipmap) object->keep_alive.push_back(res.mipmap);
  if (device->driver_device().caps().runs_host_kernels) {
    WEFT_RETURN_IF_ERROR(fill_image(object->image, res, resource, &texture, view));
  } else {
    NativeTexture spec;
    spec.resource = res.native;
    spec.texture = texture;
    // Integer texels read as integers are point-sampled (HIP's rule, the CPU sampler's):
    // CUDA leaves linear filtering of integer results undefined. The texels are the view's
    // when it names a format.
    hipArray_Format texels = res.shape.format;
    if (view && raw_value(view->format) != hipResViewFormatNone &&
        view_format(raw_value(view->format)).second != 0)
      texels = view_format(raw_value(view->format)).first;
    const bool integer_result = texels != HIP_AD_FORMAT_HALF && texels != HIP_AD_FORMAT_FLOAT &&
                                raw_value(texture.readMode) == hipReadModeElementType;
    if (integer_result)
      spec.texture.filterMode = spec.texture.mipmapFilterMode = hipFilterModePoint;
    spec.has_view = view != nullptr;
    if (view) spec.view = *view;
    WEFT_ASSIGN_OR_RETURN(object->native, device->driver_device().create_texture(spec));
  }
  textures().add(handle_of(*object), object);
  return object;
}

Status destroy_texture(hipTextureObject_t handle) {
  if (!handle) return invalid_value("null texture object");
  Ref<TextureObject> object = textures().find(handle);
  if (!object)
    return invalid_value(
        fmt::format("{} is not a live texture object", static_cast<void*>(handle)));
  // Kernels already queued may still sample it.
  WEFT_RETURN_IF_ERROR(object->device->synchronize());
  if (!textures().remove(handle))
    return invalid_value("the texture object was destroyed concurrently");
  if (object->native) return object->device->driver_device().destroy_texture(object->native);
  return Status();
}

}  // namespace weft::api

namespace {

Result<Ref<TextureObject>> find_texture(hipTextureObject_t handle) {
  if (!handle) return invalid_value("null texture object");
  Ref<TextureObject> object = textures().find(handle);
  if (!object)
    return invalid_value(
        fmt::format("{} is not a live texture object", static_cast<void*>(handle)));
  return object;
}

// The view an object without one samples: the whole resource in its own format.
hipResourceViewDesc implied_view(const TextureObject& o) {
  if (o.has_view) return o.view;
  hipResourceViewDesc v{};
  v.format = hipResViewFormatNone;
  v.width = o.shape.width;
  v.height = o.shape.height;
  v.depth = o.shape.depth;
  v.lastMipmapLevel = o.levels - 1;
  if (o.shape.flags & hipArrayLayered)
    v.lastLayer =
        static_cast<unsigned>(o.shape.depth / ((o.shape.flags & hipArrayCubemap) ? 6 : 1) - 1);
  return v;
}

// ---- driver-style descriptors <-> runtime-style ----

Result<hipResourceDesc> from_driver(const HIP_RESOURCE_DESC& d) {
  if (d.flags != 0)
    return invalid_value(fmt::format("HIP_RESOURCE_DESC flags {:#x} must be 0", d.flags));
  hipResourceDesc r{};
  // The format as an integer: a value outside the enum may not be loaded as one.
  auto desc_of = [](int f, unsigned n) -> Result<hipChannelFormatDesc> {
    if (format_bytes(f) == 0)
      return invalid_value(fmt::format("{:#x} is not a hipArray_Format", f));
    if (n != 1 && n != 2 && n != 4) return invalid_value(fmt::format("{} channels (1, 2 or 4)", n));
    return channel_desc_of(static_cast<hipArray_Format>(f), n);
  };
  switch (raw_value(d.resType)) {
    case HIP_RESOURCE_TYPE_ARRAY:
      r.resType = hipResourceTypeArray;
      r.res.array.array = d.res.array.hArray;
      break;
    case HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY:
      r.resType = hipResourceTypeMipmappedArray;
      r.res.mipmap.mipmap = d.res.mipmap.hMipmappedArray;
      break;
    case HIP_RESOURCE_TYPE_LINEAR: {
      r.resType = hipResourceTypeLinear;
      r.res.linear.devPtr = d.res.linear.devPtr;
      WEFT_ASSIGN_OR_RETURN(r.res.linear.desc,
                            desc_of(raw_value(d.res.linear.format), d.res.linear.numChannels));
      r.res.linear.sizeInBytes = d.res.linear.sizeInBytes;
      break;
    }
    case HIP_RESOURCE_TYPE_PITCH2D: {
      r.resType = hipResourceTypePitch2D;
      r.res.pitch2D.devPtr = d.res.pitch2D.devPtr;
      WEFT_ASSIGN_OR_RETURN(r.res.pitch2D.desc,
                            desc_of(raw_value(d.res.pitch2D.format), d.res.pitch2D.numChannels));
      r.res.pitch2D.width = d.res.pitch2D.width;
      r.res.pitch2D.height = d.res.pitch2D.height;
      r.res.pitch2D.pitchInBytes = d.res.pitch2D.pitchInBytes;
      break;
    }
    default:
      return invalid_value(
          fmt::format("resType {} is not a HIPresourcetype", raw_value(d.resType)));
  }
  return r;
}

HIP_RESOURCE_DESC to_driver(const hipResourceDesc& r) {
  HIP_RESOURCE_DESC d{};
  switch (raw_value(r.resType)) {
    case hipResourceTypeArray:
      d.resType = HIP_RESOURCE_TYPE_ARRAY;
      d.res.array.hArray = r.res.array.array;
      break;
    case hipResourceTypeMipmappedArray:
      d.resType = HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY;
      d.res.mipmap.hMipmappedArray = r.res.mipmap.mipmap;
      break;
    case hipResourceTypeLinear: {
      d.resType = HIP_RESOURCE_TYPE_LINEAR;
      d.res.linear.devPtr = r.res.linear.devPtr;
      auto f = format_of(r.res.linear.desc);
      if (f.ok()) {
        d.res.linear.format = f.value().first;
        d.res.linear.numChannels = f.value().second;
      }
      d.res.linear.sizeInBytes = r.res.linear.sizeInBytes;
      break;
    }
    default: {
      d.resType = HIP_RESOURCE_TYPE_PITCH2D;
      d.res.pitch2D.devPtr = r.res.pitch2D.devPtr;
      auto f = format_of(r.res.pitch2D.desc);
      if (f.ok()) {
        d.res.pitch2D.format = f.value().first;
        d.res.pitch2D.numChannels = f.value().second;
      }
      d.res.pitch2D.width = r.res.pitch2D.width;
      d.res.pitch2D.height = r.res.pitch2D.height;
      d.res.pitch2D.pitchInBytes = r.res.pitch2D.pitchInBytes;
      break;
    }
  }
  return d;
}

Result<hipTextureDesc> from_driver(const HIP_TEXTURE_DESC& d) {
  constexpr unsigned kFlags =
      HIP_TRSF_READ_AS_INTEGER | HIP_TRSF_NORMALIZED_COORDINATES | HIP_TRSF_SRGB;
  if (d.flags & ~kFlags)
    return invalid_value(fmt::format("unknown HIP_TEXTURE_DESC flags {:#x}", d.flags));
  hipTextureDesc t{};
  for (int i = 0; i < 3; ++i)
    t.addressMode[i] = static_cast<hipTextureAddressMode>(raw_value(d.addressMode[i]));
  t.filterMode = static_cast<hipTextureFilterMode>(raw_value(d.filterMode));
  // The driver API promotes integer texels to normalized floats unless told not to.
  t.readMode =
      (d.flags & HIP_TRSF_READ_AS_INTEGER) ? hipReadModeElementType : hipReadModeNormalizedFloat;
  t.normalizedCoords = (d.flags & HIP_TRSF_NORMALIZED_COORDINATES) ? 1 : 0;
  t.sRGB = (d.flags & HIP_TRSF_SRGB) ? 1 : 0;
  t.maxAnisotropy = d.maxAnisotropy;
  t.mipmapFilterMode = static_cast<hipTextureFilterMode>(raw_value(d.mipmapFilterMode));
  t.mipmapLevelBias = d.mipmapLevelBias;
  t.minMipmapLevelClamp = d.minMipmapLevelClamp;
  t.maxMipmapLevelClamp = d.maxMipmapLevelClamp;
  for (int c = 0; c < 4; ++c) t.borderColor[c] = d.borderColor[c];
  return t;
}

HIP_TEXTURE_DESC to_driver(const hipTextureDesc& t) {
  HIP_TEXTURE_DESC d{};
  for (int i = 0; i < 3; ++i)
    d.addressMode[i] = static_cast<HIPaddress_mode>(raw_value(t.addressMode[i]));
  d.filterMode = static_cast<HIPfilter_mode>(raw_value(t.filterMode));
  d.flags = (raw_value(t.readMode) == hipReadModeElementType ? HIP_TRSF_READ_AS_INTEGER : 0u) |
            (t.normalizedCoords ? HIP_TRSF_NORMALIZED_COORDINATES : 0u) |
            (t.sRGB ? HIP_TRSF_SRGB : 0u);
  d.maxAnisotropy = t.maxAnisotropy;
  d.mipmapFilterMode = static_cast<HIPfilter_mode>(raw_value(t.mipmapFilterMode));
  d.mipmapLevelBias = t.mipmapLevelBias;
  d.minMipmapLevelClamp = t.minMipmapLevelClamp;
  d.maxMipmapLevelClamp = t.maxMipmapLevelClamp;
  for (int c = 0; c < 4; ++c) d.borderColor[c] = t.borderColor[c];
  return d;
}

hipResourceViewDesc from_driver(const HIP_RESOURCE_VIEW_DESC& d) {
  hipResourceViewDesc v{};
  v.format = static_cast<hipResourceViewFormat>(raw_value(d.format));
  v.width = d.width;
  v.height = d.height;
  v.depth = d.depth;
  v.firstMipmapLevel = d.firstMipmapLevel;
  v.lastMipmapLevel = d.lastMipmapLevel;
  v.firstLayer = d.firstLayer;
  v.lastLayer = d.lastLayer;
  return v;
}

HIP_RESOURCE_VIEW_DESC to_driver(const hipResourceViewDesc& v) {
  HIP_RESOURCE_VIEW_DESC d{};
  d.format = static_cast<HIPresourceViewFormat>(raw_value(v.format));
  d.width = v.width;
  d.height = v.height;
  d.depth = v.depth;
  d.firstMipmapLevel = v.firstMipmapLevel;
  d.lastMipmapLevel = v.lastMipmapLevel;
  d.firstLayer = v.firstLayer;
  d.lastLayer = v.lastLayer;
  return d;
}

Status create(hipTextureObject_t* out, const hipResourceDesc* resource,
              const hipTextureDesc* texture, const hipResourceViewDesc* view) {
  if (!out) return invalid_value("null texture object output pointer");
  if (!resource) return invalid_value("null hipResourceDesc");
  if (!texture) return invalid_value("null hipTextureDesc");
  WEFT_ASSIGN_OR_RETURN(Ref<TextureObject> object, create_texture(*resource, *texture, view));
  *out = handle_of(*object);
  return Status();
}

}  // namespace

WEFT_EXPORT hipError_t hipCreateTextureObject(hipTextureObject_t* pTexObject,
                                              const hipResourceDesc* pResDesc,
                                              const hipTextureDesc* pTexDesc,
                                              const hipResourceViewDesc* pResViewDesc) {
  return call(
      "hipCreateTextureObject",
      [&] { return create(pTexObject, pResDesc, pTexDesc, pResViewDesc); }, pTexObject, pResDesc,
      pTexDesc, pResViewDesc);
}

WEFT_EXPORT hipError_t hipDestroyTextureObject(hipTextureObject_t textureObject) {
  return call(
      "hipDestroyTextureObject",
      [&] {
    // CUDA and AMD accept the null object.
    if (!textureObject) return Status();
    return destroy_texture(textureObject);
      },
      textureObject);
}

WEFT_EXPORT hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* pResDesc,
                                                       hipTextureObject_t textureObject) {
  return call(
      "hipGetTextureObjectResourceDesc",
      [&] {
    if (!pResDesc) return invalid_value("null hipResourceDesc output");
    WEFT_ASSIGN_OR_RETURN(Ref<TextureObject> o, find_texture(textureObject));
    *pResDesc = o->resource;
    return Status();
      },
      pResDesc, textureObject);
}

WEFT_EXPORT hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* pTexDesc,
                                                      hipTextureObject_t textureObject) {
  return call(
      "hipGetTextureObjectTextureDesc",
      [&] {
    if (!pTexDesc) return invalid_value("null hipTextureDesc output");
    WEFT_ASSIGN_OR_RETURN(Ref<TextureObject> o, find_texture(textureObject));
    *pTexDesc = o->texture;
    return Status();
      },
      pTexDesc, textureObject);
}

WEFT_EXPORT hipError_t hipGetTextureObjectResourceViewDesc(hipResourceViewDesc* pResViewDesc,
                                                           hipTextureObject_t textureObject) {
  return call(
      "hipGetTextureObjectResourceViewDesc",
      [&] {
    if (!pResViewDesc) return invalid_value("null hipResourceViewDesc output");
    WEFT_ASSIGN_OR_RETURN(Ref<TextureObject> o, find_texture(textureObject));
    *pResViewDesc = implied_view(*o);
    return Status();
      },
      pResViewDesc, textureObject);
}

WEFT_EXPORT hipError_t hipTexObjectCreate(hipTextureObject_t* pTexObject,
                                          const HIP_RESOURCE_DESC* pResDesc,
                                          const HIP_TEXTURE_DESC* pTexDesc,
                                          const HIP_RESOURCE_VIEW_DESC* pResViewDesc) {
  return call(
      "hipTexObjectCreate",
      [&] {
    if (!pResDesc) return invalid_value("null HIP_RESOURCE_DESC");
    if (!pTexDesc) return invalid_value("null HIP_TEXTURE_DESC");
    WEFT_ASSIGN_OR_RETURN(hipResourceDesc resource, from_driver(*pResDesc));
    WEFT_ASSIGN_OR_RETURN(hipTextureDesc texture, from_driver(*pTexDesc));
    // Integer texels the driver form promotes: 32-bit ones stay integers.
    int f = raw_value(pResDesc->resType) == HIP_RESOURCE_TYPE_LINEAR
              ? raw_value(pResDesc->res.linear.format)
          : raw_value(pResDesc->resType) == HIP_RESOURCE_TYPE_PITCH2D
              ? raw_value(pResDesc->res.pitch2D.format)
              : 0;
    if (f == HIP_AD_FORMAT_UNSIGNED_INT32 || f == HIP_AD_FORMAT_SIGNED_INT32)
      texture.readMode = hipReadModeElementType;
    if (raw_value(pResDesc->resType) == HIP_RESOURCE_TYPE_ARRAY) {
      if (auto a = arrays().find(pResDesc->res.array.hArray);
          a && (a->shape.format == HIP_AD_FORMAT_UNSIGNED_INT32 ||
                a->shape.format == HIP_AD_FORMAT_SIGNED_INT32))
        texture.readMode = hipReadModeElementType;
    }
    hipResourceViewDesc view{};
    if (pResViewDesc) view = from_driver(*pResViewDesc);
    return create(pTexObject, &resource, &texture, pResViewDesc ? &view : nullptr);
      },
      pTexObject, pResDesc, pTexDesc, pResViewDesc);
}

WEFT_EXPORT hipError_t hipTexObjectDestroy(hipTextureObject_t texObject) {
  return call(
      "hipTexObjectDestroy",
      [&] {
    if (!texObject) return Status();
    return destroy_texture(texObject);
      },
      texObject);
}

WEFT_EXPORT hipError_t hipTexObjectGetResourceDesc(HIP_RESOURCE_DESC* pResDesc,
                                                   hipTextureObject_t texObject) {
  return call(
      "hipTexObjectGetResourceDesc",
      [&] {
    if (!pResDesc) return invalid_value("null HIP_RESOURCE_DESC output");
    WEFT_ASSIGN_OR_RETURN(Ref<TextureObject> o, find_texture(texObject));
    *pResDesc = to_driver(o->resource);
    return Status();
      },
      pResDesc, texObject);
}

WEFT_EXPORT hipError_t hipTexObjectGetTextureDesc(HIP_TEXTURE_DESC* pTexDesc,
                                                  hipTextureObject_t texObject) {
  return call(
      "hipTexObjectGetTextureDesc",
      [&] {
    if (!pTexDesc) return invalid_value("null HIP_TEXTURE_DESC output");
    WEFT_ASSIGN_OR_RETURN(Ref<TextureObject> o, find_texture(texObject));
    *pTexDesc = to_driver(o->texture);
    return Status();
      },
      pTexDesc, texObject);
}

WEFT_EXPORT hipError_t hipTexObjectGetResourceViewDesc(HIP_RESOURCE_VIEW_DESC* pResViewDesc,
                                                       hipTextureObject_t texObject) {
  return call(
      "hipTexObjectGetResourceViewDesc",
      [&] {
    if (!pResViewDesc) return invalid_value("null HIP_RESOURCE_VIEW_DESC output");
    WEFT_ASSIGN_OR_RETURN(Ref<TextureObject> o, find_texture(texObject));
    *pResViewDesc = to_driver(implied_view(*o));
    return Status();
      },
      pResViewDesc, texObject);
}

WEFT_EXPORT hipError_t hipDeviceGetTexture1DLinearMaxWidth(size_t* max_width,
                                                           const hipChannelFormatDesc* desc,
                                                           int device) {
  return call(
      "hipDeviceGetTexture1DLinearMaxWidth",
      [&] {
    if (!max_width) return invalid_value("null output pointer");
    if (!desc) return invalid_value("null channel descriptor");
    WEFT_RETURN_IF_ERROR(format_of(*desc).status());
    WEFT_ASSIGN_OR_RETURN(DeviceState * d, device_at(device));
    // GPUs report their limit; the software sampler's is its 32-bit extent (kMaxLinearTexels).
    int limit = d->props().maxTexture1DLinear;
    *max_width = limit > 0 ? static_cast<size_t>(limit) : kMaxLinearTexels;
    return Status();
      },
      max_width, desc, device);
}
