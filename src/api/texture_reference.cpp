// SPDX-License-Identifier: MIT
// Texture references (deprecated in HIP and CUDA): hipBindTexture*,
// hipUnbindTexture, hipGetTextureReference, hipGetTextureAlignmentOffset and the
// driver-style hipTexRef* calls. A textureReference (the base of texture<T, dim,
// mode>) carries its sampling state; binding makes a texture object from that
// state and the resource and stores it in the reference's textureObject field,
// which the kernels' tex1D(texRef, ...) read. Setting a sampling property of a
// bound reference binds it again, so the next launch sees the change (the
// driver API's rule). What the struct has no field for (border colour, what is
// bound) lives in a side table keyed by the reference's address.
#include "api/image_ranges.hpp"
#include "api/launch_code_object.hpp"
#include "api/texture_objects.hpp"
#include "codeobj/registry.hpp"
#include "graph/capture.hpp"

#include <climits>
#include <cstddef>
#include <mutex>

using namespace weft;
using namespace weft::api;

namespace {

struct Binding {
  bool bound = false;
  hipResourceDesc resource{};
  float border[4] = {0, 0, 0, 0};
};

// Leaf lock: held only to read or write an entry, never across a call out.
std::mutex g_bindings_mutex;
std::unordered_map<const textureReference*, Binding>& bindings() {
  static auto* map =
      new std::unordered_map<const textureReference*, Binding>;  // lives for the process
  return *map;
}

Binding binding_of(const textureReference* ref) {
  std::lock_guard lock(g_bindings_mutex);
  auto it = bindings().find(ref);
  return it == bindings().end() ? Binding{} : it->second;
}

void store_binding(const textureReference* ref, const Binding& b) {
  std::lock_guard lock(g_bindings_mutex);
  bindings()[ref] = b;
}

hipTextureDesc texture_desc_of(const textureReference& r, const Binding& b) {
  hipTextureDesc t{};
  for (int d = 0; d < 3; ++d) t.addressMode[d] = r.addressMode[d];
  t.filterMode = r.filterMode;
  t.readMode = r.readMode;
  t.sRGB = r.sRGB;
  t.normalizedCoords = r.normalized;
  t.maxAnisotropy = r.maxAnisotropy;
  t.mipmapFilterMode = r.mipmapFilterMode;
  t.mipmapLevelBias = r.mipmapLevelBias;
  t.minMipmapLevelClamp = r.minMipmapLevelClamp;
  t.maxMipmapLevelClamp = r.maxMipmapLevelClamp;
  for (int c = 0; c < 4; ++c) t.borderColor[c] = b.border[c];
  return t;
}

Status unbind(const textureReference* ref) {
  auto* r = const_cast<textureReference*>(ref);
  if (r->textureObject) {
    WEFT_RETURN_IF_ERROR(destroy_texture(r->textureObject));
    r->textureObject = nullptr;
  }
  Registry::get().texture_rebound(ref);
  Binding b = binding_of(ref);
  b.bound = false;
  store_binding(ref, b);
  return Status();
}

// Makes the object for `resource` from the reference's state, replacing the one
// it had.
Status bind(const textureReference* ref, const hipResourceDesc& resource) {
  if (!ref) return invalid_value("null texture reference");
  auto* r = const_cast<textureReference*>(ref);
  Binding b = binding_of(ref);
  WEFT_ASSIGN_OR_RETURN(Ref<TextureObject> object,
                        create_texture(resource, texture_desc_of(*r, b), nullptr));
  hipTextureObject_t old = r->textureObject;
  r->textureObject = handle_of(*object);
  Registry::get().texture_rebound(ref);
  b.bound = true;
  b.resource = resource;
  store_binding(ref, b);
  if (old) WEFT_RETURN_IF_ERROR(destroy_texture(old));
  return Status();
}

// A sampling property changed: bind again so the object has it.
Status rebind(const textureReference* ref) {
  Binding b = binding_of(ref);
  return b.bound ? bind(ref, b.resource) : Status();
}

// The element format a reference's driver-style state names (hipTexRefSetFormat),
// or its channel descriptor when none was set.
hipChannelFormatDesc format_desc(const textureReference& r) {
  if (r.numChannels > 0 && format_bytes(raw_value(r.format)) != 0)
    return channel_desc_of(static_cast<hipArray_Format>(raw_value(r.format)),
                           static_cast<unsigned>(r.numChannels));
  return r.channelDesc;
}

// Linear memory from `ptr` to the end of its allocation, at most `size` bytes, whole elements.
size_t linear_bytes(const void* ptr, size_t size, const hipChannelFormatDesc& desc) {
  auto record = Runtime::get().pointers().find(ptr);
  if (record) {
    size_t left =
        record->size - static_cast<size_t>(static_cast<const std::byte*>(ptr) - record->base);
    if (size > left) size = left;
  }
  auto format = format_of(desc);
  size_t texel = format.ok() ? format_bytes(format.value().first) * format.value().second : 1;
  return size / texel * texel;
}

Status bind_linear(size_t* offset, const textureReference* ref, const void* ptr,
                   const hipChannelFormatDesc& desc, size_t size) {
  if (!ref) return invalid_value("null texture reference");
  hipResourceDesc res{};
  res.resType = hipResourceTypeLinear;
  res.res.linear.devPtr = const_cast<void*>(ptr);
  res.res.linear.desc = desc;
  res.res.linear.sizeInBytes = ptr ? linear_bytes(ptr, size, desc) : size;
  WEFT_RETURN_IF_ERROR(bind(ref, res));
  const_cast<textureReference*>(ref)->channelDesc = desc;
  if (offset) *offset = 0;  // weft binds only aligned addresses: no offset to report
  return Status();
}

Status bind_pitch_2d(const textureReference* ref, const void* ptr, const hipChannelFormatDesc& desc,
                     size_t width, size_t height, size_t pitch) {
  if (!ref) return invalid_value("null texture reference");
  hipResourceDesc res{};
  res.resType = hipResourceTypePitch2D;
  res.res.pitch2D.devPtr = const_cast<void*>(ptr);
  res.res.pitch2D.desc = desc;
  res.res.pitch2D.width = width;
  res.res.pitch2D.height = height;
  res.res.pitch2D.pitchInBytes = pitch;
  WEFT_RETURN_IF_ERROR(bind(ref, res));
  const_cast<textureReference*>(ref)->channelDesc = desc;
  return Status();
}

Status bind_array(const textureReference* ref, hipArray_const_t array) {
  if (!ref) return invalid_value("null texture reference");
  WEFT_ASSIGN_OR_RETURN(Ref<hipArray> a, find_array(array, "array"));
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = const_cast<hipArray_t>(array);
  WEFT_RETURN_IF_ERROR(bind(ref, res));
  const_cast<textureReference*>(ref)->channelDesc =
      channel_desc_of(a->shape.format, a->shape.channels);
  return Status();
}

Status bind_mipmap(const textureReference* ref, hipMipmappedArray_const_t mipmap) {
  if (!ref) return invalid_value("null texture reference");
  WEFT_ASSIGN_OR_RETURN(Ref<MipmapObject> m, find_mipmap(mipmap, "mipmapped array"));
  hipResourceDesc res{};
  res.resType = hipResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = const_cast<hipMipmappedArray_t>(mipmap);
  WEFT_RETURN_IF_ERROR(bind(ref, res));
  const_cast<textureReference*>(ref)->channelDesc =
      channel_desc_of(m->shape.format, m->shape.channels);
  return Status();
}

Status check_address_mode(int mode) {
  if (mode < hipAddressModeWrap || mode > hipAddressModeBorder)
    return invalid_value(fmt::format("{} is not a hipTextureAddressMode", mode));
  return Status();
}

Status check_filter_mode(int mode) {
  if (mode != hipFilterModePoint && mode != hipFilterModeLinear)
    return invalid_value(fmt::format("{} is not a hipTextureFilterMode", mode));
  return Status();
}

// Runs `set` on a non-null reference, then binds it again if it was bound.
template <typename Set>
Status set_property(textureReference* ref, Set&& set) {
  if (!ref) return invalid_value("null texture reference");
  WEFT_RETURN_IF_ERROR(set(*ref));
  return rebind(ref);
}

template <typename Get>
Status get_property(const textureReference* ref, const void* out, Get&& get) {
  if (!out) return invalid_value("null output pointer");
  if (!ref) return invalid_value("null texture reference");
  return get(*ref);
}

}  // namespace

namespace weft::api {

Status refresh_texture_references(RegisteredFunction& registered, Stream& stream) {
  FatBinary& fatbin = registered.fatbin();
  if (!fatbin.has_textures()) return Status();
  DeviceState& device = stream.device();
  WEFT_ASSIGN_OR_RETURN(Ref<Module> module, fatbin.module_for(device, "texture references"));
  // A captured copy runs only when its graph does (and reads the reference then): while
  // anything captures, copy at every launch and remember nothing.
  const bool capturing = graph::capture_active();
  return fatbin.for_each_texture(
      device, [&](const FatBinary::TextureRef& t, uint64_t& written) -> Status {
        const auto* host = static_cast<const textureReference*>(t.host);
        const uint64_t value = reinterpret_cast<uintptr_t>(host->textureObject);
        if (value == written && !capturing) return Status();
        auto storage = module->global(t.name);
        if (!storage.ok()) {
          // No kernel of this image reads it (the device pass dropped it): nothing to keep.
          written = value;
          return Status();
        }
        std::span<std::byte> copy = storage.value();
        // Where the object goes: a CPU image's copy is the whole struct; weftcc's NVPTX
        // images make it the 64-bit object alone (docs/textures.md, "Texture references").
        size_t offset = 0;
        if (copy.size() >= sizeof(textureReference))
          offset = offsetof(textureReference, textureObject);
        else if (copy.size() != sizeof(uint64_t))
          return Status(
              hipErrorInvalidImage,
              fmt::format(
                  "texture reference {} on device {} is {} bytes: neither a textureReference "
                  "({} bytes) nor a 64-bit texture object",
                  t.name, device.ordinal(), copy.size(), sizeof(textureReference)));
        // From the host reference's own field, in stream order: the copy reads the binding
        // in force when it runs (a captured one: when its graph runs), which is always a
        // live object, as binding anew synchronizes the device before it destroys the old.
        CopyOp op;
        op.dst = copy.data() + offset;
        op.src = &host->textureObject;
        op.width = op.dst_pitch = op.src_pitch = sizeof(uint64_t);
        op.direction = CopyDirection::kHostToDevice;
        WEFT_RETURN_IF_ERROR(stream.submit(op));
        if (!capturing) written = value;
        return Status();
      });
}

}  // namespace weft::api

WEFT_EXPORT hipError_t hipBindTexture(size_t* offset, const textureReference* tex,
                                      const void* devPtr, const hipChannelFormatDesc* desc,
                                      size_t size) {
  return call(
      "hipBindTexture",
      [&] {
    if (!desc) return invalid_value("null channel descriptor");
    return bind_linear(offset, tex, devPtr, *desc, size);
      },
      offset, tex, devPtr, desc, size);
}

WEFT_EXPORT hipError_t hipBindTexture2D(size_t* offset, const textureReference* tex,
                                        const void* devPtr, const hipChannelFormatDesc* desc,
                                        size_t width, size_t height, size_t pitch) {
  return call(
      "hipBindTexture2D",
      [&] {
    if (!desc) return invalid_value("null channel descriptor");
    WEFT_RETURN_IF_ERROR(bind_pitch_2d(tex, devPtr, *desc, width, height, pitch));
    if (offset) *offset = 0;
    return Status();
      },
      offset, tex, devPtr, desc, width, height, pitch);
}

WEFT_EXPORT hipError_t hipBindTextureToArray(const textureReference* tex, hipArray_const_t array,
                                             const hipChannelFormatDesc* desc) {
  return call(
      "hipBindTextureToArray",
      [&] {
    (void)desc;  // the array's own format is what it holds
    return bind_array(tex, array);
      },
      tex, array, desc);
}

WEFT_EXPORT hipError_t hipBindTextureToMipmappedArray(const textureReference* tex,
                                                      hipMipmappedArray_const_t mipmappedArray,
                                                      const hipChannelFormatDesc* desc) {
  return call(
      "hipBindTextureToMipmappedArray",
      [&] {
    (void)desc;
    return bind_mipmap(tex, mipmappedArray);
      },
      tex, mipmappedArray, desc);
}

WEFT_EXPORT hipError_t hipUnbindTexture(const textureReference* tex) {
  return call(
      "hipUnbindTexture",
      [&] {
    if (!tex) return invalid_value("null texture reference");
    return unbind(tex);
      },
      tex);
}

WEFT_EXPORT hipError_t hipGetTextureReference(const textureReference** texref, const void* symbol) {
  return call(
      "hipGetTextureReference",
      [&] {
    if (!texref) return invalid_value("null output pointer");
    if (!symbol) return Status(hipErrorInvalidSymbol, "null symbol");
    // Single-source programs: the texture<> variable is its own reference, in the
    // program's writable data.
    if (!image_data_range(symbol, sizeof(textureReference), Access::kRead))
      return Status(hipErrorInvalidSymbol,
                    fmt::format("{} is no texture variable of a loaded program", symbol));
    *texref = static_cast<const textureReference*>(symbol);
    return Status();
      },
      texref, symbol);
}

WEFT_EXPORT hipError_t hipGetTextureAlignmentOffset(size_t* offset,
                                                    const textureReference* texref) {
  return call(
      "hipGetTextureAlignmentOffset",
      [&] {
    if (!offset) return invalid_value("null output pointer");
    if (!texref) return invalid_value("null texture reference");
    if (!binding_of(texref).bound)
      return Status(hipErrorInvalidTexture, "the texture reference is not bound");
    *offset = 0;
    return Status();
      },
      offset, texref);
}

// ---- driver-style setters ----

WEFT_EXPORT hipError_t hipTexRefSetAddress(size_t* ByteOffset, textureReference* texRef,
                                           hipDeviceptr_t dptr, size_t bytes) {
  return call(
      "hipTexRefSetAddress",
      [&] {
    if (!texRef) return invalid_value("null texture reference");
    return bind_linear(ByteOffset, texRef, dptr, format_desc(*texRef), bytes);
      },
      ByteOffset, texRef, dptr, bytes);
}

WEFT_EXPORT hipError_t hipTexRefSetAddress2D(textureReference* texRef,
                                             const HIP_ARRAY_DESCRIPTOR* desc, hipDeviceptr_t dptr,
                                             size_t Pitch) {
  return call(
      "hipTexRefSetAddress2D",
      [&] {
    if (!desc) return invalid_value("null HIP_ARRAY_DESCRIPTOR");
    if (format_bytes(raw_value(desc->Format)) == 0)
      return invalid_value(fmt::format("{:#x} is not a hipArray_Format", raw_value(desc->Format)));
    if (desc->NumChannels != 1 && desc->NumChannels != 2 && desc->NumChannels != 4)
      return invalid_value(fmt::format("{} channels (1, 2 or 4)", desc->NumChannels));
    hipChannelFormatDesc cd =
        channel_desc_of(static_cast<hipArray_Format>(raw_value(desc->Format)), desc->NumChannels);
    return bind_pitch_2d(texRef, dptr, cd, desc->Width, desc->Height, Pitch);
      },
      texRef, desc, dptr, Pitch);
}

WEFT_EXPORT hipError_t hipTexRefSetArray(textureReference* tex, hipArray_const_t array,
                                         unsigned int flags) {
  return call(
      "hipTexRefSetArray",
      [&] {
    if (flags & ~unsigned{HIP_TRSA_OVERRIDE_FORMAT})
      return invalid_value(fmt::format("unknown flags {:#x}", flags));
    return bind_array(tex, array);
      },
      tex, array, flags);
}

WEFT_EXPORT hipError_t hipTexRefSetMipmappedArray(textureReference* texRef,
                                                  hipMipmappedArray* mipmappedArray,
                                                  unsigned int Flags) {
  return call(
      "hipTexRefSetMipmappedArray",
      [&] {
    if (Flags & ~unsigned{HIP_TRSA_OVERRIDE_FORMAT})
      return invalid_value(fmt::format("unknown flags {:#x}", Flags));
    return bind_mipmap(texRef, mipmappedArray);
      },
      texRef, mipmappedArray, Flags);
}

WEFT_EXPORT hipError_t hipTexRefSetAddressMode(textureReference* texRef, int dim,
                                               hipTextureAddressMode am) {
  return call(
      "hipTexRefSetAddressMode",
      [&] {
    return set_property(texRef, [&](textureReference& r) {
      if (dim < 0 || dim > 2) return invalid_value(fmt::format("dimension {} (0, 1 or 2)", dim));
      WEFT_RETURN_IF_ERROR(check_address_mode(raw_value(am)));
      r.addressMode[dim] = am;
      return Status();
    });
      },
      texRef, dim, am);
}

WEFT_EXPORT hipError_t hipTexRefSetFilterMode(textureReference* texRef, hipTextureFilterMode fm) {
  return call(
      "hipTexRefSetFilterMode",
      [&] {
    return set_property(texRef, [&](textureReference& r) {
      WEFT_RETURN_IF_ERROR(check_filter_mode(raw_value(fm)));
      r.filterMode = fm;
      return Status();
    });
      },
      texRef, fm);
}

WEFT_EXPORT hipError_t hipTexRefSetFlags(textureReference* texRef, unsigned int Flags) {
  return call(
      "hipTexRefSetFlags",
      [&] {
    return set_property(texRef, [&](textureReference& r) {
      constexpr unsigned kKnown =
          HIP_TRSF_READ_AS_INTEGER | HIP_TRSF_NORMALIZED_COORDINATES | HIP_TRSF_SRGB;
      if (Flags & ~kKnown) return invalid_value(fmt::format("unknown flags {:#x}", Flags));
      r.readMode =
          (Flags & HIP_TRSF_READ_AS_INTEGER) ? hipReadModeElementType : hipReadModeNormalizedFloat;
      r.normalized = (Flags & HIP_TRSF_NORMALIZED_COORDINATES) ? 1 : 0;
      r.sRGB = (Flags & HIP_TRSF_SRGB) ? 1 : 0;
      return Status();
    });
      },
      texRef, Flags);
}

WEFT_EXPORT hipError_t hipTexRefSetFormat(textureReference* texRef, hipArray_Format fmt,
                                          int NumPackedComponents) {
  return call(
      "hipTexRefSetFormat",
      [&] {
    return set_property(texRef, [&](textureReference& r) {
      if (format_bytes(raw_value(fmt)) == 0)
        return invalid_value(fmt::format("{:#x} is not a hipArray_Format", raw_value(fmt)));
      if (NumPackedComponents != 1 && NumPackedComponents != 2 && NumPackedComponents != 4)
        return invalid_value(fmt::format("{} components (1, 2 or 4)", NumPackedComponents));
      r.format = fmt;
      r.numChannels = NumPackedComponents;
      r.channelDesc = channel_desc_of(fmt, static_cast<unsigned>(NumPackedComponents));
      return Status();
    });
      },
      texRef, fmt, NumPackedComponents);
}

WEFT_EXPORT hipError_t hipTexRefSetMaxAnisotropy(textureReference* texRef, unsigned int maxAniso) {
  return call(
      "hipTexRefSetMaxAnisotropy",
      [&] {
    return set_property(texRef, [&](textureReference& r) {
      r.maxAnisotropy = maxAniso;
      return Status();
    });
      },
      texRef, maxAniso);
}

WEFT_EXPORT hipError_t hipTexRefSetBorderColor(textureReference* texRef, float* pBorderColor) {
  return call(
      "hipTexRefSetBorderColor",
      [&] {
    if (!pBorderColor) return invalid_value("null border colour");
    return set_property(texRef, [&](textureReference& r) {
      Binding b = binding_of(&r);
      for (int c = 0; c < 4; ++c) b.border[c] = pBorderColor[c];
      store_binding(&r, b);
      return Status();
    });
      },
      texRef, pBorderColor);
}

WEFT_EXPORT hipError_t hipTexRefSetMipmapFilterMode(textureReference* texRef,
                                                    hipTextureFilterMode fm) {
  return call(
      "hipTexRefSetMipmapFilterMode",
      [&] {
    return set_property(texRef, [&](textureReference& r) {
      WEFT_RETURN_IF_ERROR(check_filter_mode(raw_value(fm)));
      r.mipmapFilterMode = fm;
      return Status();
    });
      },
      texRef, fm);
}

WEFT_EXPORT hipError_t hipTexRefSetMipmapLevelBias(textureReference* texRef, float bias) {
  return call(
      "hipTexRefSetMipmapLevelBias",
      [&] {
    return set_property(texRef, [&](textureReference& r) {
      r.mipmapLevelBias = bias;
      return Status();
    });
      },
      texRef, bias);
}

WEFT_EXPORT hipError_t hipTexRefSetMipmapLevelClamp(textureReference* texRef,
                                                    float minMipMapLevelClamp,
                                                    float maxMipMapLevelClamp) {
  return call(
      "hipTexRefSetMipmapLevelClamp",
      [&] {
    return set_property(texRef, [&](textureReference& r) {
      if (minMipMapLevelClamp > maxMipMapLevelClamp)
        return invalid_value(fmt::format("minimum level {} above maximum {}", minMipMapLevelClamp,
                                         maxMipMapLevelClamp));
      r.minMipmapLevelClamp = minMipMapLevelClamp;
      r.maxMipmapLevelClamp = maxMipMapLevelClamp;
      return Status();
    });
      },
      texRef, minMipMapLevelClamp, maxMipMapLevelClamp);
}

// ---- driver-style getters ----

WEFT_EXPORT hipError_t hipTexRefGetAddress(hipDeviceptr_t* dev_ptr,
                                           const textureReference* texRef) {
  return call(
      "hipTexRefGetAddress",
      [&] {
    return get_property(texRef, dev_ptr, [&](const textureReference& r) {
      Binding b = binding_of(&r);
      int type = raw_value(b.resource.resType);
      if (!b.bound || (type != hipResourceTypeLinear && type != hipResourceTypePitch2D))
        return invalid_value("the texture reference is not bound to linear memory");
      *dev_ptr = type == hipResourceTypeLinear ? b.resource.res.linear.devPtr
                                               : b.resource.res.pitch2D.devPtr;
      return Status();
    });
      },
      dev_ptr, texRef);
}

WEFT_EXPORT hipError_t hipTexRefGetAddressMode(hipTextureAddressMode* pam,
                                               const textureReference* texRef, int dim) {
  return call(
      "hipTexRefGetAddressMode",
      [&] {
    return get_property(texRef, pam, [&](const textureReference& r) {
      if (dim < 0 || dim > 2) return invalid_value(fmt::format("dimension {} (0, 1 or 2)", dim));
      *pam = r.addressMode[dim];
      return Status();
    });
      },
      pam, texRef, dim);
}

WEFT_EXPORT hipError_t hipTexRefGetArray(hipArray_t* pArray, const textureReference* texRef) {
  return call(
      "hipTexRefGetArray",
      [&] {
    return get_property(texRef, pArray, [&](const textureReference& r) {
      Binding b = binding_of(&r);
      if (!b.bound || raw_value(b.resource.resType) != hipResourceTypeArray)
        return invalid_value("the texture reference is not bound to an array");
      *pArray = b.resource.res.array.array;
      return Status();
    });
      },
      pArray, texRef);
}

WEFT_EXPORT hipError_t hipTexRefGetMipMappedArray(hipMipmappedArray_t* pArray,
                                                  const textureReference* texRef) {
  return call(
      "hipTexRefGetMipMappedArray",
      [&] {
    return get_property(texRef, pArray, [&](const textureReference& r) {
      Binding b = binding_of(&r);
      if (!b.bound || raw_value(b.resource.resType) != hipResourceTypeMipmappedArray)
        return invalid_value("the texture reference is not bound to a mipmapped array");
      *pArray = b.resource.res.mipmap.mipmap;
      return Status();
    });
      },
      pArray, texRef);
}

WEFT_EXPORT hipError_t hipTexRefGetBorderColor(float* pBorderColor,
                                               const textureReference* texRef) {
  return call(
      "hipTexRefGetBorderColor",
      [&] {
    return get_property(texRef, pBorderColor, [&](const textureReference& r) {
      Binding b = binding_of(&r);
      for (int c = 0; c < 4; ++c) pBorderColor[c] = b.border[c];
      return Status();
    });
      },
      pBorderColor, texRef);
}

WEFT_EXPORT hipError_t hipTexRefGetFilterMode(hipTextureFilterMode* pfm,
                                              const textureReference* texRef) {
  return call(
      "hipTexRefGetFilterMode",
      [&] {
    return get_property(texRef, pfm, [&](const textureReference& r) {
      *pfm = r.filterMode;
      return Status();
    });
      },
      pfm, texRef);
}

WEFT_EXPORT hipError_t hipTexRefGetFlags(unsigned int* pFlags, const textureReference* texRef) {
  return call(
      "hipTexRefGetFlags",
      [&] {
    return get_property(texRef, pFlags, [&](const textureReference& r) {
      *pFlags =
          (raw_value(r.readMode) == hipReadModeElementType ? unsigned{HIP_TRSF_READ_AS_INTEGER}
                                                           : 0u) |
          (r.normalized ? unsigned{HIP_TRSF_NORMALIZED_COORDINATES} : 0u) |
          (r.sRGB ? unsigned{HIP_TRSF_SRGB} : 0u);
      return Status();
    });
      },
      pFlags, texRef);
}

WEFT_EXPORT hipError_t hipTexRefGetFormat(hipArray_Format* pFormat, int* pNumChannels,
                                          const textureReference* texRef) {
  return call(
      "hipTexRefGetFormat",
      [&] {
    if (!pNumChannels) return invalid_value("null channel count output");
    return get_property(texRef, pFormat, [&](const textureReference& r) {
      auto f = format_of(format_desc(r));
      if (!f.ok()) return f.status();
      *pFormat = f.value().first;
      *pNumChannels = static_cast<int>(f.value().second);
      return Status();
    });
      },
      pFormat, pNumChannels, texRef);
}

WEFT_EXPORT hipError_t hipTexRefGetMaxAnisotropy(int* pmaxAnsio, const textureReference* texRef) {
  return call(
      "hipTexRefGetMaxAnisotropy",
      [&] {
    return get_property(texRef, pmaxAnsio, [&](const textureReference& r) {
      *pmaxAnsio = static_cast<int>(r.maxAnisotropy);
      return Status();
    });
      },
      pmaxAnsio, texRef);
}

WEFT_EXPORT hipError_t hipTexRefGetMipmapFilterMode(hipTextureFilterMode* pfm,
                                                    const textureReference* texRef) {
  return call(
      "hipTexRefGetMipmapFilterMode",
      [&] {
    return get_property(texRef, pfm, [&](const textureReference& r) {
      *pfm = r.mipmapFilterMode;
      return Status();
    });
      },
      pfm, texRef);
}

WEFT_EXPORT hipError_t hipTexRefGetMipmapLevelBias(float* pbias, const textureReference* texRef) {
  return call(
      "hipTexRefGetMipmapLevelBias",
      [&] {
    return get_property(texRef, pbias, [&](const textureReference& r) {
      *pbias = r.mipmapLevelBias;
      return Status();
    });
      },
      pbias, texRef);
}

WEFT_EXPORT hipError_t hipTexRefGetMipmapLevelClamp(float* pminMipmapLevelClamp,
                                                    float* pmaxMipmapLevelClamp,
                                                    const textureReference* texRef) {
  return call(
      "hipTexRefGetMipmapLevelClamp",
      [&] {
    if (!pmaxMipmapLevelClamp) return invalid_value("null output pointer");
    return get_property(texRef, pminMipmapLevelClamp, [&](const textureReference& r) {
      *pminMipmapLevelClamp = r.minMipmapLevelClamp;
      *pmaxMipmapLevelClamp = r.maxMipmapLevelClamp;
      return Status();
    });
      },
      pminMipmapLevelClamp, pmaxMipmapLevelClamp, texRef);
}

WEFT_EXPORT hipError_t hipModuleGetTexRef(textureReference** texRef, hipModule_t hmod,
                                          const char* name) {
  return call(
      "hipModuleGetTexRef",
      [&] {
    if (!texRef) return invalid_value("null output pointer");
    if (!name) return invalid_value("null texture name");
    Ref<ModuleHandle> m = Registry::get().modules().find(hmod);
    if (!m)
      return Status(hipErrorInvalidResourceHandle, "module handle is unknown or was unloaded");
    // A module's texture<> variable is its reference where the module's globals are
    // host memory (CPU code objects); GPU modules' references are the vendor's
    // (CUDA 12 dropped cuModuleGetTexRef), so there is nothing to hand out.
    if (!m->device().driver_device().caps().host_can_access_device_memory)
      return Status(hipErrorNotSupported, "texture references of GPU modules: use texture objects");
    WEFT_ASSIGN_OR_RETURN(std::span<std::byte> global, m->module().global(name));
    if (global.size() < sizeof(textureReference))
      return Status(hipErrorNotFound, fmt::format("global {} ({} bytes) is no texture reference",
                                                  name, global.size()));
    *texRef = reinterpret_cast<textureReference*>(global.data());
    return Status();
      },
      texRef, hmod, name);
}
