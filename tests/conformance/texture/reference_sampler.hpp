// SPDX-License-Identifier: MIT
// A host reference for texture sampling, written from HIP's/CUDA's documented
// rules (not from weft's sampler): for each dimension, the texel indices a fetch
// touches and their weights, then the address mode applied to each index.
#pragma once

#include <hip/hip_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <vector>

namespace texref {

struct Mode {
  hipTextureAddressMode address = hipAddressModeClamp;
  hipTextureFilterMode filter = hipFilterModePoint;
  bool normalized = false;
  std::array<float, 4> border{0, 0, 0, 0};
  // Fractional bits of the linear-filter weights: 0 keeps them exact (the CPU agent's
  // sampler); GPUs keep 8 (CUDA's texture-fetching rules), rounded here to the nearest step.
  int weight_bits = 0;
};

struct Tap {
  long index;
  float weight;
};

// Texel indices (before addressing) and weights for one coordinate of a dimension of n texels.
inline std::vector<Tap> taps(float coord, long n, const Mode& m) {
  double u = m.normalized ? double(coord) * double(n) : double(coord);
  if (m.filter == hipFilterModePoint) return {{long(std::floor(u)), 1.0f}};
  double below = std::floor(u - 0.5);
  double frac = (u - 0.5) - below;
  if (m.weight_bits > 0)
    frac = std::round(std::ldexp(frac, m.weight_bits)) / std::ldexp(1.0, m.weight_bits);
  return {{long(below), float(1 - frac)}, {long(below) + 1, float(frac)}};
}

// The texel an index names after addressing, or -1 for the border colour.
inline long addressed(long i, long n, const Mode& m) {
  hipTextureAddressMode mode = m.address;
  // Unnormalized coordinates support clamp and border only; wrap and mirror clamp.
  if (!m.normalized && (mode == hipAddressModeWrap || mode == hipAddressModeMirror))
    mode = hipAddressModeClamp;
  switch (mode) {
    case hipAddressModeWrap: return long(double(i) - double(n) * std::floor(double(i) / double(n)));
    case hipAddressModeMirror: {
      // Reflect at every edge: ... 1 0 | 0 1 2 .. n-1 | n-1 n-2 ...
      long period = 2 * n;
      long k = long(double(i) - double(period) * std::floor(double(i) / double(period)));
      return k < n ? k : period - 1 - k;
    }
    case hipAddressModeBorder: return (i < 0 || i >= n) ? -1 : i;
    default: return std::min(std::max(i, 0L), n - 1);
  }
}

// Samples a texture of width x height x depth float4 texels (`texel(x, y, z)`)
// in `dims` dimensions. `spread`, when given, receives each channel's range over the
// texels the fetch touched (what one weight step can move the result by, per dimension).
inline std::array<float, 4> sample(
    const std::function<std::array<float, 4>(long, long, long)>& texel, int dims,
    const long size[3], const float coord[3], const Mode& m,
    std::array<float, 4>* spread = nullptr) {
  std::array<float, 4> lo{}, hi{};
  bool first = true;
  std::vector<Tap> t[3];
  for (int d = 0; d < 3; ++d)
    t[d] = d < dims ? taps(coord[d], size[d], m) : std::vector<Tap>{{0, 1.0f}};
  std::array<float, 4> out{0, 0, 0, 0};
  for (const Tap& tz : t[2])
    for (const Tap& ty : t[1])
      for (const Tap& tx : t[0]) {
        long ix = addressed(tx.index, size[0], m);
        long iy = dims >= 2 ? addressed(ty.index, size[1], m) : 0;
        long iz = dims >= 3 ? addressed(tz.index, size[2], m) : 0;
        std::array<float, 4> v = (ix < 0 || iy < 0 || iz < 0) ? m.border : texel(ix, iy, iz);
        float w = tx.weight * ty.weight * tz.weight;
        for (int c = 0; c < 4; ++c) {
          out[c] += w * v[c];
          lo[c] = first ? v[c] : std::min(lo[c], v[c]);
          hi[c] = first ? v[c] : std::max(hi[c], v[c]);
        }
        first = false;
      }
  if (spread)
    for (int c = 0; c < 4; ++c) (*spread)[c] = hi[c] - lo[c];
  return out;
}

}  // namespace texref
