/* SPDX-License-Identifier: MIT */
/* Texture and surface fetches for weftcc's NVIDIA (sm_*) images (docs/textures.md, "On
 * NVIDIA GPUs"): the same function set as the CPU agent's software sampler
 * (hip/weft/texture_fetch.h), as PTX texture and surface instructions in inline assembly.
 *
 * On the NVIDIA agent a hipTextureObject_t / hipSurfaceObject_t holds the CUtexObject /
 * CUsurfObject the driver made (drivers/cuda/image.cpp): the 64-bit handle these
 * instructions take in PTX's unified texture mode. A texture reference (texture<T, dim,
 * mode>) is, in this pass, clang's 64-bit texture handle; weftcc's PTX step
 * (nvidia_image.py) turns each `.texref` into a 64-bit global that the runtime fills with
 * the host reference's texture object before a launch, so the reads below load the object
 * from it.
 *
 * Texels come back as four 32-bit words: float (`.f32`) for a floating-point element type
 * (and for hipReadModeNormalizedFloat, where the driver leaves integer texels to be
 * normalized), else signed or unsigned integers by the element type's signedness, then
 * converted to T's components as the CPU sampler does. Surface accesses are untyped
 * (`suld.b`/`sust.b`) of sizeof(T) bytes (1, 2, 4, 8 or 16) at a byte offset x; the
 * boundary mode picks the instruction's `.zero`, `.clamp` or `.trap`. */
#ifndef WEFT_HIP_DEVICE_NVPTX_TEXTURE_H
#define WEFT_HIP_DEVICE_NVPTX_TEXTURE_H

#if !defined(__NVPTX__) || !defined(__HIP_DEVICE_COMPILE__)
#error "hip/weft/device/nvptx_texture.h is the NVPTX device pass's texture layer"
#endif

#include <hip/hip_vector_types.h>
#include <hip/surface_types.h>
#include <hip/texture_types.h>
#include <stdint.h>

#include <type_traits>

#define WEFT_NVTEX_FN __attribute__((device)) inline __attribute__((always_inline))

namespace weft::nvtex {

template <typename T, typename = void>
struct components {
  using scalar = T;
  static constexpr int count = 1;
};
template <typename T>
struct components<T, std::void_t<typename T::weft_vector_tag>> {
  using scalar = typename T::value_type;
  static constexpr int count = static_cast<int>(sizeof(T) / sizeof(typename T::value_type));
};

// The fetch's destination type for element type T.
enum class Kind { kF32, kS32, kU32 };
template <typename T>
constexpr Kind kind_of() {
  using S = typename components<T>::scalar;
  static_assert(
      std::is_arithmetic<S>::value && components<T>::count >= 1 && components<T>::count <= 4,
      "a texture element type is a scalar or a vector of 1 to 4 arithmetic components");
  return std::is_floating_point<S>::value ? Kind::kF32
       : std::is_signed<S>::value         ? Kind::kS32
                                          : Kind::kU32;
}

struct Texel {
  uint32_t word[4];
};

template <typename T>
WEFT_NVTEX_FN T convert(const Texel& t) {
  using S = typename components<T>::scalar;
  constexpr int n = components<T>::count;
  S values[4];
  for (int c = 0; c < n; ++c) {
    if constexpr (std::is_floating_point<S>::value)
      values[c] = static_cast<S>(__builtin_bit_cast(float, t.word[c]));
    else if constexpr (std::is_signed<S>::value)
      values[c] = static_cast<S>(static_cast<int32_t>(t.word[c]));
    else values[c] = static_cast<S>(t.word[c]);
  }
  T out;
  __builtin_memcpy(static_cast<void*>(&out), values, sizeof(S) * n);
  return out;
}

/* One `tex` instruction in the three destination types. `op` is the instruction up to
 * the destination type ("tex.2d"), `rest` what follows it (the coordinate type and the
 * operands: %0-%3 are the texel, %4 the object). Not volatile: a texture does not change
 * during a kernel, so equal fetches may be merged. */
#define WEFT_NVTEX_FETCH(K, op, rest, ...)                                                   \
  Texel texel;                                                                               \
  if constexpr (K == Kind::kF32) {                                                           \
    float f0, f1, f2, f3;                                                                    \
    asm(op ".v4.f32." rest : "=f"(f0), "=f"(f1), "=f"(f2), "=f"(f3) : __VA_ARGS__);          \
    texel = Texel{{__builtin_bit_cast(uint32_t, f0), __builtin_bit_cast(uint32_t, f1),       \
                   __builtin_bit_cast(uint32_t, f2), __builtin_bit_cast(uint32_t, f3)}};     \
  } else if constexpr (K == Kind::kS32) {                                                    \
    asm(op ".v4.s32." rest                                                                   \
        : "=r"(texel.word[0]), "=r"(texel.word[1]), "=r"(texel.word[2]), "=r"(texel.word[3]) \
        : __VA_ARGS__);                                                                      \
  } else {                                                                                   \
    asm(op ".v4.u32." rest                                                                   \
        : "=r"(texel.word[0]), "=r"(texel.word[1]), "=r"(texel.word[2]), "=r"(texel.word[3]) \
        : __VA_ARGS__);                                                                      \
  }                                                                                          \
  return texel

#define WEFT_NVTEX_OUT "{%0, %1, %2, %3}, "

template <Kind K>
WEFT_NVTEX_FN Texel fetch_1d(uint64_t t, int x) {
  WEFT_NVTEX_FETCH(K, "tex.1d", "s32 " WEFT_NVTEX_OUT "[%4, {%5}];", "l"(t), "r"(x));
}
// Filtered 1D reads go through the 2D instruction at the centre of the one row (y = 0.5,
// unnormalized and normalized alike): NVIDIA's texture unit samples a 1D array as a 2D one of
// height 1, and `tex.1d` reads it at y = 0, which in border mode blends every linear fetch
// half with the border colour (seen on the H200; tex.2d at y = 0.5 gives HIP's answer).
template <Kind K>
WEFT_NVTEX_FN Texel sample_1d(uint64_t t, float x) {
  WEFT_NVTEX_FETCH(K, "tex.2d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6}];", "l"(t), "f"(x), "f"(0.5f));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_2d(uint64_t t, float x, float y) {
  WEFT_NVTEX_FETCH(K, "tex.2d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6}];", "l"(t), "f"(x), "f"(y));
}
// 3D and cube coordinates are four-element vectors whose fourth element is ignored.
template <Kind K>
WEFT_NVTEX_FN Texel sample_3d(uint64_t t, float x, float y, float z) {
  WEFT_NVTEX_FETCH(K, "tex.3d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6, %7, %7}];", "l"(t), "f"(x),
                   "f"(y), "f"(z));
}
// Layered (array) textures: the layer comes first, as a 32-bit integer.
template <Kind K>
WEFT_NVTEX_FN Texel sample_a1d(uint64_t t, int layer, float x) {
  WEFT_NVTEX_FETCH(K, "tex.a1d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6}];", "l"(t), "r"(layer),
                   "f"(x));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_a2d(uint64_t t, int layer, float x, float y) {
  WEFT_NVTEX_FETCH(K, "tex.a2d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6, %7, %7}];", "l"(t),
                   "r"(layer), "f"(x), "f"(y));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_cube(uint64_t t, float x, float y, float z) {
  WEFT_NVTEX_FETCH(K, "tex.cube", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6, %7, %7}];", "l"(t), "f"(x),
                   "f"(y), "f"(z));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_acube(uint64_t t, int layer, float x, float y, float z) {
  WEFT_NVTEX_FETCH(K, "tex.acube", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6, %7, %8}];", "l"(t),
                   "r"(layer), "f"(x), "f"(y), "f"(z));
}
// An explicit level of detail (tex.level).
template <Kind K>
WEFT_NVTEX_FN Texel sample_1d_lod(uint64_t t, float x, float lod) {
  WEFT_NVTEX_FETCH(K, "tex.level.2d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6}], %7;", "l"(t), "f"(x),
                   "f"(0.5f), "f"(lod));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_2d_lod(uint64_t t, float x, float y, float lod) {
  WEFT_NVTEX_FETCH(K, "tex.level.2d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6}], %7;", "l"(t), "f"(x),
                   "f"(y), "f"(lod));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_3d_lod(uint64_t t, float x, float y, float z, float lod) {
  WEFT_NVTEX_FETCH(K, "tex.level.3d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6, %7, %7}], %8;", "l"(t),
                   "f"(x), "f"(y), "f"(z), "f"(lod));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_a1d_lod(uint64_t t, int layer, float x, float lod) {
  WEFT_NVTEX_FETCH(K, "tex.level.a1d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6}], %7;", "l"(t),
                   "r"(layer), "f"(x), "f"(lod));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_a2d_lod(uint64_t t, int layer, float x, float y, float lod) {
  WEFT_NVTEX_FETCH(K, "tex.level.a2d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6, %7, %7}], %8;", "l"(t),
                   "r"(layer), "f"(x), "f"(y), "f"(lod));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_cube_lod(uint64_t t, float x, float y, float z, float lod) {
  WEFT_NVTEX_FETCH(K, "tex.level.cube", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6, %7, %7}], %8;", "l"(t),
                   "f"(x), "f"(y), "f"(z), "f"(lod));
}
// Gradients (tex.grad): one vector per screen axis, as many elements as the coordinates
// (four for 3D).
template <Kind K>
WEFT_NVTEX_FN Texel sample_1d_grad(uint64_t t, float x, float dx, float dy) {
  WEFT_NVTEX_FETCH(K, "tex.grad.2d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6}], {%7, %8}, {%9, %8};",
                   "l"(t), "f"(x), "f"(0.5f), "f"(dx), "f"(0.0f), "f"(dy));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_2d_grad(uint64_t t, float x, float y, float2 dx, float2 dy) {
  WEFT_NVTEX_FETCH(K, "tex.grad.2d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6}], {%7, %8}, {%9, %10};",
                   "l"(t), "f"(x), "f"(y), "f"(dx.x), "f"(dx.y), "f"(dy.x), "f"(dy.y));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_3d_grad(uint64_t t, float x, float y, float z, float4 dx, float4 dy) {
  WEFT_NVTEX_FETCH(K, "tex.grad.3d",
                   "f32 " WEFT_NVTEX_OUT
                   "[%4, {%5, %6, %7, %7}], {%8, %9, %10, %10}, {%11, %12, %13, %13};",
                   "l"(t), "f"(x), "f"(y), "f"(z), "f"(dx.x), "f"(dx.y), "f"(dx.z), "f"(dy.x),
                   "f"(dy.y), "f"(dy.z));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_a1d_grad(uint64_t t, int layer, float x, float dx, float dy) {
  WEFT_NVTEX_FETCH(K, "tex.grad.a1d", "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6}], {%7}, {%8};", "l"(t),
                   "r"(layer), "f"(x), "f"(dx), "f"(dy));
}
template <Kind K>
WEFT_NVTEX_FN Texel sample_a2d_grad(uint64_t t, int layer, float x, float y, float2 dx, float2 dy) {
  WEFT_NVTEX_FETCH(K, "tex.grad.a2d",
                   "f32 " WEFT_NVTEX_OUT "[%4, {%5, %6, %7, %7}], {%8, %9}, {%10, %11};", "l"(t),
                   "r"(layer), "f"(x), "f"(y), "f"(dx.x), "f"(dx.y), "f"(dy.x), "f"(dy.y));
}

#undef WEFT_NVTEX_OUT
#undef WEFT_NVTEX_FETCH

WEFT_NVTEX_FN uint64_t handle(const void* object) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(object));
}

// A texture reference's handle: clang gives texture<> values the 64-bit texture-handle
// type in this pass, which only inline assembly can read (weftcc turns its source, the
// reference's `.texref`, into a load of the texture object the runtime stored there).
template <typename R>
WEFT_NVTEX_FN uint64_t reference_handle(R reference) {
  uint64_t h;
  asm("mov.b64 %0, %1;" : "=l"(h) : "l"(reference));
  return h;
}

// What texture<T, dim, mode> reads return: T, or float components when normalized.
template <typename T, int mode, int n = components<T>::count>
struct ret {
  using type = T;
};
template <typename T>
struct ret<T, hipReadModeNormalizedFloat, 1> {
  using type = float;
};
template <typename T>
struct ret<T, hipReadModeNormalizedFloat, 2> {
  using type = float2;
};
template <typename T>
struct ret<T, hipReadModeNormalizedFloat, 4> {
  using type = float4;
};

// ---- surfaces ----

// The boundary mode is part of the instruction: one asm statement per mode.
#define WEFT_NVSURF_BY_MODE(X, ...)                             \
  switch (boundary) {                                           \
    case hipBoundaryModeClamp: X(__VA_ARGS__, ".clamp"); break; \
    case hipBoundaryModeTrap: X(__VA_ARGS__, ".trap"); break;   \
    default: X(__VA_ARGS__, ".zero"); break;                    \
  }
// Every coordinate operand is passed; each geometry's operand string names the ones it
// uses (x in bytes; layered: the layer first; 3D vectors padded to four elements).
#define WEFT_NVSURF_IN [s] "l"(s), [x] "r"(x), [y] "r"(y), [z] "r"(z), [l] "r"(layer)
#define WEFT_SULD1(geo, coords, ty, mode)                    \
  asm volatile("suld.b." geo ty mode " {%[v0]}, " coords ";" \
               : [v0] "=h"(v0)                               \
               : WEFT_NVSURF_IN                              \
               : "memory")
#define WEFT_SULD4(geo, coords, ty, mode)                    \
  asm volatile("suld.b." geo ty mode " {%[v0]}, " coords ";" \
               : [v0] "=r"(v0)                               \
               : WEFT_NVSURF_IN                              \
               : "memory")
#define WEFT_SULD8(geo, coords, ty, mode)                           \
  asm volatile("suld.b." geo ty mode " {%[v0], %[v1]}, " coords ";" \
               : [v0] "=r"(v0), [v1] "=r"(v1)                       \
               : WEFT_NVSURF_IN                                     \
               : "memory")
#define WEFT_SULD16(geo, coords, ty, mode)                                        \
  asm volatile("suld.b." geo ty mode " {%[v0], %[v1], %[v2], %[v3]}, " coords ";" \
               : [v0] "=r"(v0), [v1] "=r"(v1), [v2] "=r"(v2), [v3] "=r"(v3)       \
               : WEFT_NVSURF_IN                                                   \
               : "memory")
#define WEFT_SUST1(geo, coords, ty, mode)                                                   \
  asm volatile("sust.b." geo ty mode " " coords ", {%[v0]};" ::WEFT_NVSURF_IN, [v0] "h"(v0) \
               : "memory")
#define WEFT_SUST4(geo, coords, ty, mode)                                                   \
  asm volatile("sust.b." geo ty mode " " coords ", {%[v0]};" ::WEFT_NVSURF_IN, [v0] "r"(v0) \
               : "memory")
#define WEFT_SUST8(geo, coords, ty, mode)                                             \
  asm volatile("sust.b." geo ty mode " " coords ", {%[v0], %[v1]};" ::WEFT_NVSURF_IN, \
               [v0] "r"(v[0]), [v1] "r"(v[1])                                         \
               : "memory")
#define WEFT_SUST16(geo, coords, ty, mode)                                    \
  asm volatile("sust.b." geo ty mode " " coords                               \
               ", {%[v0], %[v1], %[v2], %[v3]};" ::WEFT_NVSURF_IN,            \
               [v0] "r"(v[0]), [v1] "r"(v[1]), [v2] "r"(v[2]), [v3] "r"(v[3]) \
               : "memory")

template <size_t bytes>
constexpr bool surface_size_ok() {
  static_assert(bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16,
                "a surface element is 1, 2, 4, 8 or 16 bytes");
  return true;
}

// load_<geometry><bytes>(data, surface, x, y, z, layer, boundary) and store_<...>.
#define WEFT_NVSURF_GEOMETRY(name, geo, coords)                                                 \
  template <size_t bytes>                                                                       \
  WEFT_NVTEX_FN void load_##name(void* data, uint64_t s, int x, int y, int z, int layer,        \
                                 int boundary) {                                                \
    static_assert(surface_size_ok<bytes>());                                                    \
    if constexpr (bytes == 1) {                                                                 \
      unsigned short v0;                                                                        \
      WEFT_NVSURF_BY_MODE(WEFT_SULD1, geo, coords, ".b8")                                       \
      const unsigned char b = static_cast<unsigned char>(v0);                                   \
      __builtin_memcpy(data, &b, 1);                                                            \
    } else if constexpr (bytes == 2) {                                                          \
      unsigned short v0;                                                                        \
      WEFT_NVSURF_BY_MODE(WEFT_SULD1, geo, coords, ".b16")                                      \
      __builtin_memcpy(data, &v0, 2);                                                           \
    } else if constexpr (bytes == 4) {                                                          \
      uint32_t v0;                                                                              \
      WEFT_NVSURF_BY_MODE(WEFT_SULD4, geo, coords, ".b32")                                      \
      __builtin_memcpy(data, &v0, 4);                                                           \
    } else if constexpr (bytes == 8) {                                                          \
      uint32_t v0, v1;                                                                          \
      WEFT_NVSURF_BY_MODE(WEFT_SULD8, geo, coords, ".v2.b32")                                   \
      const uint32_t v[2] = {v0, v1};                                                           \
      __builtin_memcpy(data, v, 8);                                                             \
    } else {                                                                                    \
      uint32_t v0, v1, v2, v3;                                                                  \
      WEFT_NVSURF_BY_MODE(WEFT_SULD16, geo, coords, ".v4.b32")                                  \
      const uint32_t v[4] = {v0, v1, v2, v3};                                                   \
      __builtin_memcpy(data, v, 16);                                                            \
    }                                                                                           \
  }                                                                                             \
  template <size_t bytes>                                                                       \
  WEFT_NVTEX_FN void store_##name(const void* data, uint64_t s, int x, int y, int z, int layer, \
                                  int boundary) {                                               \
    static_assert(surface_size_ok<bytes>());                                                    \
    if constexpr (bytes == 1) {                                                                 \
      unsigned char b;                                                                          \
      __builtin_memcpy(&b, data, 1);                                                            \
      const unsigned short v0 = b;                                                              \
      WEFT_NVSURF_BY_MODE(WEFT_SUST1, geo, coords, ".b8")                                       \
    } else if constexpr (bytes == 2) {                                                          \
      unsigned short v0;                                                                        \
      __builtin_memcpy(&v0, data, 2);                                                           \
      WEFT_NVSURF_BY_MODE(WEFT_SUST1, geo, coords, ".b16")                                      \
    } else if constexpr (bytes == 4) {                                                          \
      uint32_t v0;                                                                              \
      __builtin_memcpy(&v0, data, 4);                                                           \
      WEFT_NVSURF_BY_MODE(WEFT_SUST4, geo, coords, ".b32")                                      \
    } else if constexpr (bytes == 8) {                                                          \
      uint32_t v[2];                                                                            \
      __builtin_memcpy(v, data, 8);                                                             \
      WEFT_NVSURF_BY_MODE(WEFT_SUST8, geo, coords, ".v2.b32")                                   \
    } else {                                                                                    \
      uint32_t v[4];                                                                            \
      __builtin_memcpy(v, data, 16);                                                            \
      WEFT_NVSURF_BY_MODE(WEFT_SUST16, geo, coords, ".v4.b32")                                  \
    }                                                                                           \
  }

WEFT_NVSURF_GEOMETRY(1d, "1d", "[%[s], {%[x]}]")
WEFT_NVSURF_GEOMETRY(2d, "2d", "[%[s], {%[x], %[y]}]")
WEFT_NVSURF_GEOMETRY(3d, "3d", "[%[s], {%[x], %[y], %[z], %[z]}]")
WEFT_NVSURF_GEOMETRY(a1d, "a1d", "[%[s], {%[l], %[x]}]")
WEFT_NVSURF_GEOMETRY(a2d, "a2d", "[%[s], {%[l], %[x], %[y], %[y]}]")

#undef WEFT_NVSURF_GEOMETRY
#undef WEFT_SUST16
#undef WEFT_SUST8
#undef WEFT_SUST4
#undef WEFT_SUST1
#undef WEFT_SULD16
#undef WEFT_SULD8
#undef WEFT_SULD4
#undef WEFT_SULD1
#undef WEFT_NVSURF_IN
#undef WEFT_NVSURF_BY_MODE

}  // namespace weft::nvtex

// ---- texture objects ----

#define WEFT_NVTEX_K(T) weft::nvtex::kind_of<T>()
#define WEFT_NVTEX_H(obj) weft::nvtex::handle(obj)

template <typename T>
WEFT_NVTEX_FN T tex1Dfetch(hipTextureObject_t obj, int x) {
  return weft::nvtex::convert<T>(weft::nvtex::fetch_1d<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x));
}
template <typename T>
WEFT_NVTEX_FN T tex1D(hipTextureObject_t obj, float x) {
  return weft::nvtex::convert<T>(weft::nvtex::sample_1d<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x));
}
template <typename T>
WEFT_NVTEX_FN T tex2D(hipTextureObject_t obj, float x, float y) {
  return weft::nvtex::convert<T>(weft::nvtex::sample_2d<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x, y));
}
template <typename T>
WEFT_NVTEX_FN T tex3D(hipTextureObject_t obj, float x, float y, float z) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_3d<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x, y, z));
}
template <typename T>
WEFT_NVTEX_FN T tex1DLod(hipTextureObject_t obj, float x, float level) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_1d_lod<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x, level));
}
template <typename T>
WEFT_NVTEX_FN T tex2DLod(hipTextureObject_t obj, float x, float y, float level) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_2d_lod<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x, y, level));
}
template <typename T>
WEFT_NVTEX_FN T tex3DLod(hipTextureObject_t obj, float x, float y, float z, float level) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_3d_lod<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x, y, z, level));
}
template <typename T>
WEFT_NVTEX_FN T tex1DLayered(hipTextureObject_t obj, float x, int layer) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_a1d<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), layer, x));
}
template <typename T>
WEFT_NVTEX_FN T tex2DLayered(hipTextureObject_t obj, float x, float y, int layer) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_a2d<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), layer, x, y));
}
template <typename T>
WEFT_NVTEX_FN T tex1DLayeredLod(hipTextureObject_t obj, float x, int layer, float level) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_a1d_lod<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), layer, x, level));
}
template <typename T>
WEFT_NVTEX_FN T tex2DLayeredLod(hipTextureObject_t obj, float x, float y, int layer, float level) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_a2d_lod<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), layer, x, y, level));
}
template <typename T>
WEFT_NVTEX_FN T texCubemap(hipTextureObject_t obj, float x, float y, float z) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_cube<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x, y, z));
}
template <typename T>
WEFT_NVTEX_FN T texCubemapLod(hipTextureObject_t obj, float x, float y, float z, float level) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_cube_lod<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x, y, z, level));
}
template <typename T>
WEFT_NVTEX_FN T texCubemapLayered(hipTextureObject_t obj, float x, float y, float z, int layer) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_acube<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), layer, x, y, z));
}
// Gradients: the GPU's level of detail from screen-space derivatives (NVIDIA only; the CPU
// sampler has no gradient forms yet).
template <typename T>
WEFT_NVTEX_FN T tex1DGrad(hipTextureObject_t obj, float x, float dx, float dy) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_1d_grad<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x, dx, dy));
}
template <typename T>
WEFT_NVTEX_FN T tex2DGrad(hipTextureObject_t obj, float x, float y, float2 dx, float2 dy) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_2d_grad<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x, y, dx, dy));
}
template <typename T>
WEFT_NVTEX_FN T tex3DGrad(hipTextureObject_t obj, float x, float y, float z, float4 dx, float4 dy) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_3d_grad<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), x, y, z, dx, dy));
}
template <typename T>
WEFT_NVTEX_FN T tex1DLayeredGrad(hipTextureObject_t obj, float x, int layer, float dx, float dy) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_a1d_grad<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), layer, x, dx, dy));
}
template <typename T>
WEFT_NVTEX_FN T tex2DLayeredGrad(hipTextureObject_t obj, float x, float y, int layer, float2 dx,
                                 float2 dy) {
  return weft::nvtex::convert<T>(
      weft::nvtex::sample_a2d_grad<WEFT_NVTEX_K(T)>(WEFT_NVTEX_H(obj), layer, x, y, dx, dy));
}

// The forms that write through a pointer.
template <typename T>
WEFT_NVTEX_FN void tex1Dfetch(T* out, hipTextureObject_t obj, int x) {
  *out = tex1Dfetch<T>(obj, x);
}
template <typename T>
WEFT_NVTEX_FN void tex1D(T* out, hipTextureObject_t obj, float x) {
  *out = tex1D<T>(obj, x);
}
template <typename T>
WEFT_NVTEX_FN void tex2D(T* out, hipTextureObject_t obj, float x, float y) {
  *out = tex2D<T>(obj, x, y);
}
template <typename T>
WEFT_NVTEX_FN void tex3D(T* out, hipTextureObject_t obj, float x, float y, float z) {
  *out = tex3D<T>(obj, x, y, z);
}
template <typename T>
WEFT_NVTEX_FN void tex2DLod(T* out, hipTextureObject_t obj, float x, float y, float level) {
  *out = tex2DLod<T>(obj, x, y, level);
}
template <typename T>
WEFT_NVTEX_FN void tex1DLayered(T* out, hipTextureObject_t obj, float x, int layer) {
  *out = tex1DLayered<T>(obj, x, layer);
}
template <typename T>
WEFT_NVTEX_FN void tex2DLayered(T* out, hipTextureObject_t obj, float x, float y, int layer) {
  *out = tex2DLayered<T>(obj, x, y, layer);
}

// ---- texture references (texture<T, dim, mode>): they read the object the runtime stored ----

template <typename T, enum hipTextureReadMode mode>
using weft_nvtex_ret_t = typename weft::nvtex::ret<T, mode>::type;
#define WEFT_NVTEX_REF_H(t) weft::nvtex::reference_handle(t)
#define WEFT_NVTEX_REF_K(T, mode) (weft::nvtex::kind_of<weft_nvtex_ret_t<T, mode>>())

template <typename T, enum hipTextureReadMode mode>
WEFT_NVTEX_FN weft_nvtex_ret_t<T, mode> tex1Dfetch(texture<T, hipTextureType1D, mode> t, int x) {
  return weft::nvtex::convert<weft_nvtex_ret_t<T, mode>>(
      weft::nvtex::fetch_1d<WEFT_NVTEX_REF_K(T, mode)>(WEFT_NVTEX_REF_H(t), x));
}
template <typename T, enum hipTextureReadMode mode>
WEFT_NVTEX_FN weft_nvtex_ret_t<T, mode> tex1D(texture<T, hipTextureType1D, mode> t, float x) {
  return weft::nvtex::convert<weft_nvtex_ret_t<T, mode>>(
      weft::nvtex::sample_1d<WEFT_NVTEX_REF_K(T, mode)>(WEFT_NVTEX_REF_H(t), x));
}
template <typename T, enum hipTextureReadMode mode>
WEFT_NVTEX_FN weft_nvtex_ret_t<T, mode> tex2D(texture<T, hipTextureType2D, mode> t, float x,
                                              float y) {
  return weft::nvtex::convert<weft_nvtex_ret_t<T, mode>>(
      weft::nvtex::sample_2d<WEFT_NVTEX_REF_K(T, mode)>(WEFT_NVTEX_REF_H(t), x, y));
}
template <typename T, enum hipTextureReadMode mode>
WEFT_NVTEX_FN weft_nvtex_ret_t<T, mode> tex3D(texture<T, hipTextureType3D, mode> t, float x,
                                              float y, float z) {
  return weft::nvtex::convert<weft_nvtex_ret_t<T, mode>>(
      weft::nvtex::sample_3d<WEFT_NVTEX_REF_K(T, mode)>(WEFT_NVTEX_REF_H(t), x, y, z));
}
template <typename T, enum hipTextureReadMode mode>
WEFT_NVTEX_FN weft_nvtex_ret_t<T, mode> tex1DLayered(texture<T, hipTextureType1DLayered, mode> t,
                                                     float x, int layer) {
  return weft::nvtex::convert<weft_nvtex_ret_t<T, mode>>(
      weft::nvtex::sample_a1d<WEFT_NVTEX_REF_K(T, mode)>(WEFT_NVTEX_REF_H(t), layer, x));
}
template <typename T, enum hipTextureReadMode mode>
WEFT_NVTEX_FN weft_nvtex_ret_t<T, mode> tex2DLayered(texture<T, hipTextureType2DLayered, mode> t,
                                                     float x, float y, int layer) {
  return weft::nvtex::convert<weft_nvtex_ret_t<T, mode>>(
      weft::nvtex::sample_a2d<WEFT_NVTEX_REF_K(T, mode)>(WEFT_NVTEX_REF_H(t), layer, x, y));
}
template <typename T, enum hipTextureReadMode mode>
WEFT_NVTEX_FN weft_nvtex_ret_t<T, mode> tex2DLod(texture<T, hipTextureType2D, mode> t, float x,
                                                 float y, float level) {
  return weft::nvtex::convert<weft_nvtex_ret_t<T, mode>>(
      weft::nvtex::sample_2d_lod<WEFT_NVTEX_REF_K(T, mode)>(WEFT_NVTEX_REF_H(t), x, y, level));
}
template <typename T, enum hipTextureReadMode mode>
WEFT_NVTEX_FN weft_nvtex_ret_t<T, mode> texCubemap(texture<T, hipTextureTypeCubemap, mode> t,
                                                   float x, float y, float z) {
  return weft::nvtex::convert<weft_nvtex_ret_t<T, mode>>(
      weft::nvtex::sample_cube<WEFT_NVTEX_REF_K(T, mode)>(WEFT_NVTEX_REF_H(t), x, y, z));
}

#undef WEFT_NVTEX_REF_K
#undef WEFT_NVTEX_REF_H

// ---- surface objects: x is a byte offset, as in HIP ----

#define WEFT_NVSURF_H(s) weft::nvtex::handle(s)

template <typename T>
WEFT_NVTEX_FN void surf1Dread(T* data, hipSurfaceObject_t s, int x,
                              int boundaryMode = hipBoundaryModeZero) {
  weft::nvtex::load_1d<sizeof(T)>(data, WEFT_NVSURF_H(s), x, 0, 0, 0, boundaryMode);
}
template <typename T>
WEFT_NVTEX_FN void surf1Dwrite(T data, hipSurfaceObject_t s, int x,
                               int boundaryMode = hipBoundaryModeZero) {
  weft::nvtex::store_1d<sizeof(T)>(&data, WEFT_NVSURF_H(s), x, 0, 0, 0, boundaryMode);
}
template <typename T>
WEFT_NVTEX_FN void surf2Dread(T* data, hipSurfaceObject_t s, int x, int y,
                              int boundaryMode = hipBoundaryModeZero) {
  weft::nvtex::load_2d<sizeof(T)>(data, WEFT_NVSURF_H(s), x, y, 0, 0, boundaryMode);
}
template <typename T>
WEFT_NVTEX_FN void surf2Dwrite(T data, hipSurfaceObject_t s, int x, int y,
                               int boundaryMode = hipBoundaryModeZero) {
  weft::nvtex::store_2d<sizeof(T)>(&data, WEFT_NVSURF_H(s), x, y, 0, 0, boundaryMode);
}
template <typename T>
WEFT_NVTEX_FN void surf3Dread(T* data, hipSurfaceObject_t s, int x, int y, int z,
                              int boundaryMode = hipBoundaryModeZero) {
  weft::nvtex::load_3d<sizeof(T)>(data, WEFT_NVSURF_H(s), x, y, z, 0, boundaryMode);
}
template <typename T>
WEFT_NVTEX_FN void surf3Dwrite(T data, hipSurfaceObject_t s, int x, int y, int z,
                               int boundaryMode = hipBoundaryModeZero) {
  weft::nvtex::store_3d<sizeof(T)>(&data, WEFT_NVSURF_H(s), x, y, z, 0, boundaryMode);
}
template <typename T>
WEFT_NVTEX_FN void surf1DLayeredread(T* data, hipSurfaceObject_t s, int x, int layer,
                                     int boundaryMode = hipBoundaryModeZero) {
  weft::nvtex::load_a1d<sizeof(T)>(data, WEFT_NVSURF_H(s), x, 0, 0, layer, boundaryMode);
}
template <typename T>
WEFT_NVTEX_FN void surf1DLayeredwrite(T data, hipSurfaceObject_t s, int x, int layer,
                                      int boundaryMode = hipBoundaryModeZero) {
  weft::nvtex::store_a1d<sizeof(T)>(&data, WEFT_NVSURF_H(s), x, 0, 0, layer, boundaryMode);
}
template <typename T>
WEFT_NVTEX_FN void surf2DLayeredread(T* data, hipSurfaceObject_t s, int x, int y, int layer,
                                     int boundaryMode = hipBoundaryModeZero) {
  weft::nvtex::load_a2d<sizeof(T)>(data, WEFT_NVSURF_H(s), x, y, 0, layer, boundaryMode);
}
template <typename T>
WEFT_NVTEX_FN void surf2DLayeredwrite(T data, hipSurfaceObject_t s, int x, int y, int layer,
                                      int boundaryMode = hipBoundaryModeZero) {
  weft::nvtex::store_a2d<sizeof(T)>(&data, WEFT_NVSURF_H(s), x, y, 0, layer, boundaryMode);
}

#undef WEFT_NVSURF_H
#undef WEFT_NVTEX_H
#undef WEFT_NVTEX_K
#undef WEFT_NVTEX_FN

#endif  // WEFT_HIP_DEVICE_NVPTX_TEXTURE_H
