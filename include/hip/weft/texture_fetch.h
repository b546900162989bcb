// SPDX-License-Identifier: MIT
// Texture and surface reads for kernels that run on the CPU agent: a software
// sampler over weft's image descriptor.
//
// On the CPU agent a hipTextureObject_t or hipSurfaceObject_t is the address of a
// weftImage (below), which hipCreateTextureObject / hipCreateSurfaceObject fill
// in. The sampler is a set of plain inline functions on that struct, so any pass
// that runs kernel code on the host can use it. What it implements:
//   - formats: 8/16/32-bit signed and unsigned integers, half, float; 1, 2 or 4
//     channels; a missing channel reads 0 (the fourth reads 1);
//   - point and linear filtering (linear only where the result is floating point:
//     float and half texels, or hipReadModeNormalizedFloat; integer texels read
//     as integers are point-sampled);
//   - wrap, mirror, clamp and border addressing (wrap and mirror need normalized
//     coordinates, as on GPUs; unnormalized they clamp);
//   - normalized coordinates, hipReadModeNormalizedFloat for 8/16-bit integers,
//     sRGB for 8-bit unsigned normalized texels;
//   - 1D/2D/3D, layered, cubemap, mipmapped (point or linear between levels) and
//     linear-memory (tex1Dfetch) resources.
// A texel is fetched as four 32-bit words (float bits, or integer bits for
// integer texels read as integers) and converted to the requested type T as
// AMD's headers do: a float component takes the word's bits as a float, an
// integer component the word's value.
// Linear filtering uses exact float weights (GPUs round them to 8 fractional
// bits), so results can differ from a GPU's by up to 1/256 of a texel step.
#ifndef WEFT_HIP_TEXTURE_FETCH_H
#define WEFT_HIP_TEXTURE_FETCH_H

#include <hip/hip_vector_types.h>
#include <hip/surface_types.h>
#include <hip/texture_types.h>
#include <hip/weft/kernel_abi.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

// ---- the descriptor (its layout is shared with libamdhip64: bump the version on change) ----

#define WEFT_IMAGE_MAGIC 0x57494d47u /* "WIMG" */
#define WEFT_IMAGE_VERSION 1u
#define WEFT_IMAGE_MAX_LEVELS 16

// What the texels sit in.
enum weftImageResource : uint32_t {
  weftImageArray = 0,    // a hipArray (1D/2D/3D, layered, cubemap)
  weftImageMipmap = 1,   // a mipmapped array: levels[0..num_levels)
  weftImageLinear = 2,   // linear device memory (tex1Dfetch)
  weftImagePitch2D = 3,  // pitched 2D device memory
};

struct weftImageLevel {
  unsigned char* data;
  uint32_t width;   // texels
  uint32_t height;  // rows (1 for 1D)
  uint32_t depth;   // slices: 3D depth, layers, or 6 cube faces (times layers)
  uint32_t reserved;
  size_t row_pitch;    // bytes between rows
  size_t slice_pitch;  // bytes between slices
};

struct weftImage {
  uint32_t magic;        // WEFT_IMAGE_MAGIC
  uint32_t version;      // WEFT_IMAGE_VERSION
  uint32_t resource;     // weftImageResource
  uint32_t dimensions;   // 1, 2 or 3 (layered and cubemap arrays count their slices apart)
  uint32_t layered;      // slices are layers (hipArrayLayered)
  uint32_t cubemap;      // slices are cube faces (hipArrayCubemap)
  uint32_t format;       // hipArray_Format
  uint32_t channels;     // 1, 2 or 4
  uint32_t texel_bytes;  // channels * bytes per channel
  uint32_t num_levels;   // 1 unless a mipmapped array
  weftImageLevel levels[WEFT_IMAGE_MAX_LEVELS];
  // Sampling state (textures only).
  int32_t address_mode[3];  // hipTextureAddressMode
  int32_t filter_mode;      // hipTextureFilterMode
  int32_t read_mode;        // hipTextureReadMode
  int32_t normalized_coords;
  int32_t srgb;
  int32_t mipmap_filter_mode;
  float border_color[4];
  float mipmap_level_bias;
  float min_mipmap_level_clamp;
  float max_mipmap_level_clamp;
  uint32_t first_layer;  // resource view: the layers and levels sampled
  uint32_t last_layer;
  uint32_t first_level;
};

// Four 32-bit words: float bits, or integer bits for integer texels read as integers.
struct weftTexel {
  uint32_t word[4];
};

namespace weft::texture {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// IEEE binary16 to float, exactly (subnormals, infinities and NaN included).
inline float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return bits_float(sign | 0x7f800000u | (mantissa << 13));
  return bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

inline bool is_integer_format(uint32_t format) {
  return format != HIP_AD_FORMAT_HALF && format != HIP_AD_FORMAT_FLOAT;
}

// Whether the texture returns floating point (so linear filtering applies).
inline bool returns_float(const weftImage& t) {
  return !is_integer_format(t.format) || t.read_mode == hipReadModeNormalizedFloat;
}

inline float srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

// Reads the texel at `p` in the texture's return domain.
inline weftTexel load_texel(const weftImage& t, const unsigned char* p) {
  weftTexel out{{0, 0, 0, 0}};
  const bool normalized = t.read_mode == hipReadModeNormalizedFloat;
  for (uint32_t c = 0; c < t.channels && c < 4; ++c) {
    switch (t.format) {
      case HIP_AD_FORMAT_UNSIGNED_INT8: {
        uint8_t v = p[c];
        float f = v / 255.0f;
        if (t.srgb && normalized && c < 3) f = srgb_to_linear(f);
        out.word[c] = normalized ? float_bits(f) : v;
        break;
      }
      case HIP_AD_FORMAT_SIGNED_INT8: {
        int8_t v;
        std::memcpy(&v, p + c, 1);
        out.word[c] = normalized ? float_bits(std::fmax(v / 127.0f, -1.0f))
                                 : static_cast<uint32_t>(int32_t{v});
        break;
      }
      case HIP_AD_FORMAT_UNSIGNED_INT16: {
        uint16_t v;
        std::memcpy(&v, p + 2 * c, 2);
        out.word[c] = normalized ? float_bits(v / 65535.0f) : v;
        break;
      }
      case HIP_AD_FORMAT_SIGNED_INT16: {
        int16_t v;
        std::memcpy(&v, p + 2 * c, 2);
        out.word[c] = normalized ? float_bits(std::fmax(v / 32767.0f, -1.0f))
                                 : static_cast<uint32_t>(int32_t{v});
        break;
      }
      case HIP_AD_FORMAT_UNSIGNED_INT32:
      case HIP_AD_FORMAT_SIGNED_INT32:
        std::memcpy(&out.word[c], p + 4 * c, 4);  // 32-bit texels have no normalized form
        break;
      case HIP_AD_FORMAT_HALF: {
        uint16_t v;
        std::memcpy(&v, p + 2 * c, 2);
        out.word[c] = float_bits(half_to_float(v));
        break;
      }
      default:  // HIP_AD_FORMAT_FLOAT
        std::memcpy(&out.word[c], p + 4 * c, 4);
        break;
    }
  }
  if (t.channels < 4) out.word[3] = returns_float(t) ? float_bits(1.0f) : 1u;
  return out;
}

inline weftTexel border_texel(const weftImage& t) {
  weftTexel out;
  for (int c = 0; c < 4; ++c) {
    // Integer texels read as integers take the border colour's value, converted.
    out.word[c] = returns_float(t) ? float_bits(t.border_color[c])
                                   : static_cast<uint32_t>(static_cast<int32_t>(t.border_color[c]));
  }
  return out;
}

// floor(u) as an integer, saturated so far-out or NaN coordinates stay defined.
inline int64_t floor_index(float u) {
  if (!(u == u)) return 0;
  float f = std::floor(u);
  if (f < -1073741824.0f) return -1073741824;
  if (f > 1073741824.0f) return 1073741824;
  return static_cast<int64_t>(f);
}

// Maps a texel index into [0, n) by the address mode; -1 means "the border".
inline int64_t address(int64_t i, int64_t n, int mode, bool normalized) {
  if (n <= 0) return -1;
  if (!normalized && (mode == hipAddressModeWrap || mode == hipAddressModeMirror))
    mode = hipAddressModeClamp;
  switch (mode) {
    case hipAddressModeWrap: {
      int64_t m = i % n;
      return m < 0 ? m + n : m;
    }
    case hipAddressModeMirror: {
      int64_t period = 2 * n;
      int64_t m = i % period;
      if (m < 0) m += period;
      return m < n ? m : period - 1 - m;
    }
    case hipAddressModeBorder: return (i < 0 || i >= n) ? -1 : i;
    default:  // clamp
      return i < 0 ? 0 : (i >= n ? n - 1 : i);
  }
}

inline const unsigned char* texel_address(const weftImageLevel& l, uint32_t texel_bytes, int64_t x,
                                          int64_t y, int64_t slice) {
  return l.data + static_cast<size_t>(slice) * l.slice_pitch +
         static_cast<size_t>(y) * l.row_pitch + static_cast<size_t>(x) * texel_bytes;
}

// One texel of a level at integer coordinates after addressing (`slice` already valid).
inline weftTexel tap(const weftImage& t, const weftImageLevel& l, int dims, int64_t x, int64_t y,
                     int64_t z, int64_t slice) {
  const bool norm = t.normalized_coords != 0;
  int64_t ax = address(x, l.width, t.address_mode[0], norm);
  int64_t ay = dims >= 2 ? address(y, l.height, t.address_mode[1], norm) : 0;
  int64_t az = dims >= 3 ? address(z, l.depth, t.address_mode[2], norm) : slice;
  if (ax < 0 || ay < 0 || az < 0) return border_texel(t);
  return load_texel(t, texel_address(l, t.texel_bytes, ax, ay, az));
}

// Samples one level at float coordinates (`dims` of them are used); `slice` is the
// layer or cube face for 1D/2D resources.
inline weftTexel sample_level(const weftImage& t, const weftImageLevel& l, int dims, float x,
                              float y, float z, int64_t slice) {
  const bool norm = t.normalized_coords != 0;
  float u = norm ? x * static_cast<float>(l.width) : x;
  float v = norm ? y * static_cast<float>(l.height) : y;
  float w = norm ? z * static_cast<float>(l.depth) : z;
  if (t.filter_mode != hipFilterModeLinear || !returns_float(t))
    return tap(t, l, dims, floor_index(u), floor_index(v), floor_index(w), slice);
  // Linear: weights from the distance to the texel centres at i + 0.5.
  u -= 0.5f;
  v -= 0.5f;
  w -= 0.5f;
  int64_t i0 = floor_index(u), j0 = floor_index(v), k0 = floor_index(w);
  float a = u - static_cast<float>(i0), b = v - static_cast<float>(j0),
        c = w - static_cast<float>(k0);
  if (!(a == a)) a = 0;
  if (!(b == b)) b = 0;
  if (!(c == c)) c = 0;
  float sum[4] = {0, 0, 0, 0};
  const int nj = dims >= 2 ? 2 : 1, nk = dims >= 3 ? 2 : 1;
  for (int dk = 0; dk < nk; ++dk) {
    for (int dj = 0; dj < nj; ++dj) {
      for (int di = 0; di < 2; ++di) {
        float weight = (di ? a : 1 - a) * (dims >= 2 ? (dj ? b : 1 - b) : 1.0f) *
                       (dims >= 3 ? (dk ? c : 1 - c) : 1.0f);
        weftTexel s = tap(t, l, dims, i0 + di, j0 + dj, k0 + dk, slice);
        for (int ch = 0; ch < 4; ++ch) sum[ch] += weight * bits_float(s.word[ch]);
      }
    }
  }
  weftTexel out;
  for (int ch = 0; ch < 4; ++ch) out.word[ch] = float_bits(sum[ch]);
  return out;
}

inline int64_t layer_index(const weftImage& t, int layer) {
  int64_t first = t.first_layer, last = t.last_layer;
  int64_t l = first + layer;
  return l < first ? first : (l > last ? last : l);
}

// Samples at a level of detail: mipmapped resources pick (or blend) levels.
inline weftTexel sample(const weftImage& t, int dims, float x, float y, float z, int64_t slice,
                        float lod) {
  if (t.magic != WEFT_IMAGE_MAGIC || t.num_levels == 0) return weftTexel{{0, 0, 0, 0}};
  if (t.num_levels == 1) return sample_level(t, t.levels[0], dims, x, y, z, slice);
  float level = lod + t.mipmap_level_bias;
  float lo = t.min_mipmap_level_clamp, hi = t.max_mipmap_level_clamp;
  if (level > hi) level = hi;
  if (level < lo || !(level == level)) level = lo;
  float top = static_cast<float>(t.num_levels - 1);
  if (level > top) level = top;
  if (level < 0) level = 0;
  if (t.mipmap_filter_mode != hipFilterModeLinear || !returns_float(t))
    return sample_level(t, t.levels[static_cast<uint32_t>(std::floor(level + 0.5f))], dims, x, y, z,
                        slice);
  uint32_t l0 = static_cast<uint32_t>(std::floor(level));
  float f = level - static_cast<float>(l0);
  weftTexel a = sample_level(t, t.levels[l0], dims, x, y, z, slice);
  if (f == 0 || l0 + 1 >= t.num_levels) return a;
  weftTexel b = sample_level(t, t.levels[l0 + 1], dims, x, y, z, slice);
  weftTexel out;
  for (int ch = 0; ch < 4; ++ch)
    out.word[ch] = float_bits((1 - f) * bits_float(a.word[ch]) + f * bits_float(b.word[ch]));
  return out;
}

// tex1Dfetch: an integer index, no filtering; outside the resource every word is 0.
inline weftTexel fetch(const weftImage& t, int x) {
  if (t.magic != WEFT_IMAGE_MAGIC || t.num_levels == 0) return weftTexel{{0, 0, 0, 0}};
  const weftImageLevel& l = t.levels[0];
  if (x < 0 || static_cast<uint32_t>(x) >= l.width) return weftTexel{{0, 0, 0, 0}};
  return load_texel(t, texel_address(l, t.texel_bytes, x, 0, 0));
}

// Cube map direction to (face, s, t) in [0, 1], by the major axis.
inline weftTexel sample_cube(const weftImage& t, float x, float y, float z, int layer, float lod) {
  float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  int face;
  float sc, tc, ma;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    sc = x >= 0 ? -z : z;
    tc = -y;
    ma = ax;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    sc = x;
    tc = y >= 0 ? z : -z;
    ma = ay;
  } else {
    face = z >= 0 ? 4 : 5;
    sc = z >= 0 ? x : -x;
    tc = -y;
    ma = az;
  }
  if (ma == 0) ma = 1;
  weftImage face_view = t;
  face_view.normalized_coords = 1;
  face_view.address_mode[0] = face_view.address_mode[1] = hipAddressModeClamp;
  float s = (sc / ma + 1) * 0.5f, tt = (tc / ma + 1) * 0.5f;
  int64_t cubes = t.levels[0].depth / 6;
  int64_t cube = layer < 0 ? 0 : (layer >= cubes ? cubes - 1 : layer);
  return sample(face_view, 2, s, tt, 0, cube * 6 + face, lod);
}

// ---- conversion to the caller's type ----

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

template <typename T>
inline T convert(const weftTexel& texel) {
  using S = typename components<T>::scalar;
  constexpr int n = components<T>::count;
  static_assert(std::is_arithmetic<S>::value && n >= 1 && n <= 4, "not a texel type");
  S values[4];
  for (int c = 0; c < n; ++c) {
    if constexpr (std::is_floating_point<S>::value)
      values[c] = static_cast<S>(bits_float(texel.word[c]));
    else if constexpr (std::is_signed<S>::value)
      values[c] = static_cast<S>(static_cast<int32_t>(texel.word[c]));
    else values[c] = static_cast<S>(texel.word[c]);
  }
  T out;
  std::memcpy(static_cast<void*>(&out), values, sizeof(S) * n);
  return out;
}

inline const weftImage& image(const void* object) { return *static_cast<const weftImage*>(object); }

// ---- surfaces: raw bytes at a byte offset in the row ----

// Where a surface access of `bytes` lands, or null when it is dropped (zero mode).
inline unsigned char* surface_address(const void* object, int x, int y, int z, int dims,
                                      size_t bytes, int boundary) {
  const weftImage& s = image(object);
  if (s.magic != WEFT_IMAGE_MAGIC || s.num_levels == 0) return nullptr;
  const weftImageLevel& l = s.levels[0];
  int64_t row_bytes = int64_t{l.width} * s.texel_bytes;
  int64_t limits[3] = {row_bytes - static_cast<int64_t>(bytes) + 1, l.height, l.depth};
  int64_t at[3] = {x, dims >= 2 ? y : 0, dims >= 3 ? z : 0};
  for (int d = 0; d < 3; ++d) {
    if (at[d] >= 0 && at[d] < limits[d]) continue;
    if (boundary == hipBoundaryModeClamp && limits[d] > 0) {
      at[d] = at[d] < 0 ? 0 : limits[d] - 1;
      continue;
    }
    if (boundary == hipBoundaryModeTrap)
      weftKernelAssertFail("surface access out of range (hipBoundaryModeTrap)", __FILE__, __LINE__,
                           "weft::texture::surface_address");
    return nullptr;
  }
  return l.data + static_cast<size_t>(at[2]) * l.slice_pitch +
         static_cast<size_t>(at[1]) * l.row_pitch + static_cast<size_t>(at[0]);
}

template <typename T>
inline void surface_read(T* data, const void* object, int x, int y, int z, int dims, int boundary) {
  const unsigned char* p = surface_address(object, x, y, z, dims, sizeof(T), boundary);
  if (p) std::memcpy(static_cast<void*>(data), p, sizeof(T));
  else std::memset(static_cast<void*>(data), 0, sizeof(T));
}

template <typename T>
inline void surface_write(const T& data, const void* object, int x, int y, int z, int dims,
                          int boundary) {
  unsigned char* p = surface_address(object, x, y, z, dims, sizeof(T), boundary);
  if (p) std::memcpy(p, static_cast<const void*>(&data), sizeof(T));
}

// What texture<T, dim, mode> reads return: T, or float components for
// hipReadModeNormalizedFloat.
template <typename T, int mode, typename = void>
struct ret {
  using type = T;
};
template <typename T>
struct ret<T, hipReadModeNormalizedFloat, std::enable_if_t<components<T>::count == 1>> {
  using type = float;
};
template <typename T>
struct ret<T, hipReadModeNormalizedFloat, std::enable_if_t<(components<T>::count == 2)>> {
  using type = float2;
};
template <typename T>
struct ret<T, hipReadModeNormalizedFloat, std::enable_if_t<(components<T>::count == 4)>> {
  using type = float4;
};

}  // namespace weft::texture

// ---- texture objects ----

template <typename T>
inline T tex1Dfetch(hipTextureObject_t obj, int x) {
  return weft::texture::convert<T>(weft::texture::fetch(weft::texture::image(obj), x));
}
template <typename T>
inline T tex1D(hipTextureObject_t obj, float x) {
  return weft::texture::convert<T>(
      weft::texture::sample(weft::texture::image(obj), 1, x, 0, 0, 0, 0));
}
template <typename T>
inline T tex2D(hipTextureObject_t obj, float x, float y) {
  return weft::texture::convert<T>(
      weft::texture::sample(weft::texture::image(obj), 2, x, y, 0, 0, 0));
}
template <typename T>
inline T tex3D(hipTextureObject_t obj, float x, float y, float z) {
  return weft::texture::convert<T>(
      weft::texture::sample(weft::texture::image(obj), 3, x, y, z, 0, 0));
}
template <typename T>
inline T tex1DLod(hipTextureObject_t obj, float x, float level) {
  return weft::texture::convert<T>(
      weft::texture::sample(weft::texture::image(obj), 1, x, 0, 0, 0, level));
}
template <typename T>
inline T tex2DLod(hipTextureObject_t obj, float x, float y, float level) {
  return weft::texture::convert<T>(
      weft::texture::sample(weft::texture::image(obj), 2, x, y, 0, 0, level));
}
template <typename T>
inline T tex3DLod(hipTextureObject_t obj, float x, float y, float z, float level) {
  return weft::texture::convert<T>(
      weft::texture::sample(weft::texture::image(obj), 3, x, y, z, 0, level));
}
template <typename T>
inline T tex1DLayered(hipTextureObject_t obj, float x, int layer) {
  const weftImage& t = weft::texture::image(obj);
  return weft::texture::convert<T>(
      weft::texture::sample(t, 1, x, 0, 0, weft::texture::layer_index(t, layer), 0));
}
template <typename T>
inline T tex2DLayered(hipTextureObject_t obj, float x, float y, int layer) {
  const weftImage& t = weft::texture::image(obj);
  return weft::texture::convert<T>(
      weft::texture::sample(t, 2, x, y, 0, weft::texture::layer_index(t, layer), 0));
}
template <typename T>
inline T tex1DLayeredLod(hipTextureObject_t obj, float x, int layer, float level) {
  const weftImage& t = weft::texture::image(obj);
  return weft::texture::convert<T>(
      weft::texture::sample(t, 1, x, 0, 0, weft::texture::layer_index(t, layer), level));
}
template <typename T>
inline T tex2DLayeredLod(hipTextureObject_t obj, float x, float y, int layer, float level) {
  const weftImage& t = weft::texture::image(obj);
  return weft::texture::convert<T>(
      weft::texture::sample(t, 2, x, y, 0, weft::texture::layer_index(t, layer), level));
}
template <typename T>
inline T texCubemap(hipTextureObject_t obj, float x, float y, float z) {
  return weft::texture::convert<T>(
      weft::texture::sample_cube(weft::texture::image(obj), x, y, z, 0, 0));
}
template <typename T>
inline T texCubemapLod(hipTextureObject_t obj, float x, float y, float z, float level) {
  return weft::texture::convert<T>(
      weft::texture::sample_cube(weft::texture::image(obj), x, y, z, 0, level));
}
template <typename T>
inline T texCubemapLayered(hipTextureObject_t obj, float x, float y, float z, int layer) {
  return weft::texture::convert<T>(
      weft::texture::sample_cube(weft::texture::image(obj), x, y, z, layer, 0));
}

// The forms that write through a pointer.
template <typename T>
inline void tex1Dfetch(T* out, hipTextureObject_t obj, int x) {
  *out = tex1Dfetch<T>(obj, x);
}
template <typename T>
inline void tex1D(T* out, hipTextureObject_t obj, float x) {
  *out = tex1D<T>(obj, x);
}
template <typename T>
inline void tex2D(T* out, hipTextureObject_t obj, float x, float y) {
  *out = tex2D<T>(obj, x, y);
}
template <typename T>
inline void tex3D(T* out, hipTextureObject_t obj, float x, float y, float z) {
  *out = tex3D<T>(obj, x, y, z);
}
template <typename T>
inline void tex2DLod(T* out, hipTextureObject_t obj, float x, float y, float level) {
  *out = tex2DLod<T>(obj, x, y, level);
}
template <typename T>
inline void tex1DLayered(T* out, hipTextureObject_t obj, float x, int layer) {
  *out = tex1DLayered<T>(obj, x, layer);
}
template <typename T>
inline void tex2DLayered(T* out, hipTextureObject_t obj, float x, float y, int layer) {
  *out = tex2DLayered<T>(obj, x, y, layer);
}

// ---- texture references (texture<T, dim, mode>): they read their bound object ----

template <typename T, int dim, enum hipTextureReadMode mode>
using weft_tex_ret_t = typename weft::texture::ret<T, mode>::type;

template <typename T, enum hipTextureReadMode mode>
inline weft_tex_ret_t<T, hipTextureType1D, mode> tex1Dfetch(texture<T, hipTextureType1D, mode> t,
                                                            int x) {
  return tex1Dfetch<weft_tex_ret_t<T, hipTextureType1D, mode>>(t.textureObject, x);
}
template <typename T, enum hipTextureReadMode mode>
inline weft_tex_ret_t<T, hipTextureType1D, mode> tex1D(texture<T, hipTextureType1D, mode> t,
                                                       float x) {
  return tex1D<weft_tex_ret_t<T, hipTextureType1D, mode>>(t.textureObject, x);
}
template <typename T, enum hipTextureReadMode mode>
inline weft_tex_ret_t<T, hipTextureType2D, mode> tex2D(texture<T, hipTextureType2D, mode> t,
                                                       float x, float y) {
  return tex2D<weft_tex_ret_t<T, hipTextureType2D, mode>>(t.textureObject, x, y);
}
template <typename T, enum hipTextureReadMode mode>
inline weft_tex_ret_t<T, hipTextureType3D, mode> tex3D(texture<T, hipTextureType3D, mode> t,
                                                       float x, float y, float z) {
  return tex3D<weft_tex_ret_t<T, hipTextureType3D, mode>>(t.textureObject, x, y, z);
}
template <typename T, enum hipTextureReadMode mode>
inline weft_tex_ret_t<T, hipTextureType1DLayered, mode> tex1DLayered(
    texture<T, hipTextureType1DLayered, mode> t, float x, int layer) {
  return tex1DLayered<weft_tex_ret_t<T, hipTextureType1DLayered, mode>>(t.textureObject, x, layer);
}
template <typename T, enum hipTextureReadMode mode>
inline weft_tex_ret_t<T, hipTextureType2DLayered, mode> tex2DLayered(
    texture<T, hipTextureType2DLayered, mode> t, float x, float y, int layer) {
  return tex2DLayered<weft_tex_ret_t<T, hipTextureType2DLayered, mode>>(t.textureObject, x, y,
                                                                        layer);
}
template <typename T, enum hipTextureReadMode mode>
inline weft_tex_ret_t<T, hipTextureType2D, mode> tex2DLod(texture<T, hipTextureType2D, mode> t,
                                                          float x, float y, float level) {
  return tex2DLod<weft_tex_ret_t<T, hipTextureType2D, mode>>(t.textureObject, x, y, level);
}
template <typename T, enum hipTextureReadMode mode>
inline weft_tex_ret_t<T, hipTextureTypeCubemap, mode> texCubemap(
    texture<T, hipTextureTypeCubemap, mode> t, float x, float y, float z) {
  return texCubemap<weft_tex_ret_t<T, hipTextureTypeCubemap, mode>>(t.textureObject, x, y, z);
}

// ---- surface objects: x is a byte offset, as in HIP ----

template <typename T>
inline void surf1Dread(T* data, hipSurfaceObject_t s, int x,
                       int boundaryMode = hipBoundaryModeZero) {
  weft::texture::surface_read(data, s, x, 0, 0, 1, boundaryMode);
}
template <typename T>
inline void surf1Dwrite(T data, hipSurfaceObject_t s, int x,
                        int boundaryMode = hipBoundaryModeZero) {
  weft::texture::surface_write(data, s, x, 0, 0, 1, boundaryMode);
}
template <typename T>
inline void surf2Dread(T* data, hipSurfaceObject_t s, int x, int y,
                       int boundaryMode = hipBoundaryModeZero) {
  weft::texture::surface_read(data, s, x, y, 0, 2, boundaryMode);
}
template <typename T>
inline void surf2Dwrite(T data, hipSurfaceObject_t s, int x, int y,
                        int boundaryMode = hipBoundaryModeZero) {
  weft::texture::surface_write(data, s, x, y, 0, 2, boundaryMode);
}
template <typename T>
inline void surf3Dread(T* data, hipSurfaceObject_t s, int x, int y, int z,
                       int boundaryMode = hipBoundaryModeZero) {
  weft::texture::surface_read(data, s, x, y, z, 3, boundaryMode);
}
template <typename T>
inline void surf3Dwrite(T data, hipSurfaceObject_t s, int x, int y, int z,
                        int boundaryMode = hipBoundaryModeZero) {
  weft::texture::surface_write(data, s, x, y, z, 3, boundaryMode);
}
// Layered surfaces: the layer is the slice.
template <typename T>
inline void surf1DLayeredread(T* data, hipSurfaceObject_t s, int x, int layer,
                              int boundaryMode = hipBoundaryModeZero) {
  weft::texture::surface_read(data, s, x, 0, layer, 3, boundaryMode);
}
template <typename T>
inline void surf1DLayeredwrite(T data, hipSurfaceObject_t s, int x, int layer,
                               int boundaryMode = hipBoundaryModeZero) {
  weft::texture::surface_write(data, s, x, 0, layer, 3, boundaryMode);
}
template <typename T>
inline void surf2DLayeredread(T* data, hipSurfaceObject_t s, int x, int y, int layer,
                              int boundaryMode = hipBoundaryModeZero) {
  weft::texture::surface_read(data, s, x, y, layer, 3, boundaryMode);
}
template <typename T>
inline void surf2DLayeredwrite(T data, hipSurfaceObject_t s, int x, int y, int layer,
                               int boundaryMode = hipBoundaryModeZero) {
  weft::texture::surface_write(data, s, x, y, layer, 3, boundaryMode);
}

#endif  // WEFT_HIP_TEXTURE_FETCH_H
