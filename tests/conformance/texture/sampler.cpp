// SPDX-License-Identifier: MIT
// Conformance: texture objects sampled in kernels (the CPU agent's software
// sampler exactly; GPU texture units within their documented precision, check_sample). Every filter x address mode x coordinate mode on small 1D, 2D and 3D
// float textures, compared with reference_sampler.hpp; element formats and
// hipReadModeNormalizedFloat; linear and pitch2D resources (tex1Dfetch); layered,
// cubemap and mipmapped arrays; resource views; texture references.
#include "hip_test.hpp"
#include "reference_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {

__global__ void sample_1d(hipTextureObject_t tex, const float* x, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float4>(tex, x[i]);
}

__global__ void sample_2d(hipTextureObject_t tex, const float2* xy, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(tex, xy[i].x, xy[i].y);
}

__global__ void sample_3d(hipTextureObject_t tex, const float4* xyz, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float4>(tex, xyz[i].x, xyz[i].y, xyz[i].z);
}

// A float4 texel whose channels differ, so a mixed-up channel shows.
std::array<float, 4> texel_value(long x, long y, long z) {
  float base = float(x) * 1.0f + float(y) * 10.0f + float(z) * 100.0f;
  return {base, -base, base * 0.5f + 3, 7.0f - float(x)};
}

template <typename T>
std::vector<T> run(void (*kernel)(hipTextureObject_t, const T*, float4*, int),
                   hipTextureObject_t tex, const std::vector<T>& coords, std::vector<float4>& out) {
  hip_test::DeviceBuffer<T> d_coords(coords.size());
  hip_test::DeviceBuffer<float4> d_out(coords.size());
  HIP_CHECK(
      hipMemcpy(d_coords.get(), coords.data(), coords.size() * sizeof(T), hipMemcpyHostToDevice));
  int n = static_cast<int>(coords.size());
  HIP_LAUNCH_CHECK(kernel, dim3((n + 63) / 64), dim3(64), 0, nullptr, tex, d_coords.get(),
                   d_out.get(), n);
  HIP_CHECK(hipDeviceSynchronize());
  out.resize(coords.size());
  HIP_CHECK(hipMemcpy(out.data(), d_out.get(), out.size() * sizeof(float4), hipMemcpyDeviceToHost));
  return coords;
}

bool close(float got, float want) {
  return std::fabs(got - want) <= 1e-4f * std::max(1.0f, std::fabs(want));
}

void expect_texel(const float4& got, const std::array<float, 4>& want, const std::string& where) {
  INFO(where << ": got (" << got.x << ", " << got.y << ", " << got.z << ", " << got.w << "), want ("
             << want[0] << ", " << want[1] << ", " << want[2] << ", " << want[3] << ")");
  CHECK(close(got.x, want[0]));
  CHECK(close(got.y, want[1]));
  CHECK(close(got.z, want[2]));
  CHECK(close(got.w, want[3]));
}

// GPU texture units keep 8 fractional bits of the linear weights and compute normalized
// coordinates in reduced precision (CUDA's texture-fetching rules; the CPU agent's sampler
// is exact). On a GPU agent a fetch is checked against the reference with 8-bit weights,
// within one weight step per dimension, and a point fetch on a texel boundary may take
// either neighbour.
bool on_cpu_agent() {
  const std::string arch = hip_test::props().gcnArchName;
  return arch == "x86_64" || arch == "aarch64";
}

void check_sample(const float4& got, int dims, const long size[3], const float c[3], texref::Mode m,
                  const std::string& where) {
  if (on_cpu_agent()) {
    expect_texel(got, texref::sample(texel_value, dims, size, c, m), where);
    return;
  }
  m.weight_bits = 8;
  std::array<float, 4> spread{};
  const std::array<float, 4> want = texref::sample(texel_value, dims, size, c, m, &spread);
  // The neighbour a point fetch on a texel boundary may take instead.
  std::array<float, 4> other = want;
  if (m.filter == hipFilterModePoint) {
    float below[3] = {c[0], c[1], c[2]};
    for (int d = 0; d < dims; ++d) {
      double u = m.normalized ? double(c[d]) * double(size[d]) : double(c[d]);
      if (std::fabs(u - std::round(u)) < 1e-4)
        below[d] =
            float(m.normalized ? (std::round(u) - 0.5) / double(size[d]) : std::round(u) - 0.5);
    }
    other = texref::sample(texel_value, dims, size, below, m);
  }
  const float g[4] = {got.x, got.y, got.z, got.w};
  INFO(where << ": got (" << g[0] << ", " << g[1] << ", " << g[2] << ", " << g[3] << "), want ("
             << want[0] << ", " << want[1] << ", " << want[2] << ", " << want[3] << ")");
  for (int ch = 0; ch < 4; ++ch) {
    const float step = float(dims) * spread[size_t(ch)] / 256.0f;
    CHECK((std::fabs(g[ch] - want[size_t(ch)]) <=
               step + 1e-4f * std::max(1.0f, std::fabs(want[size_t(ch)])) ||
           close(g[ch], other[size_t(ch)])));
  }
}

// A float4 array of the given extent filled with texel_value.
struct FloatArray {
  hipArray_t array = nullptr;
  long size[3];
  FloatArray(long w, long h, long d) : size{w, h ? h : 1, d ? d : 1} {
    hipChannelFormatDesc desc = hipCreateChannelDesc<float4>();
    HIP_CHECK(hipMalloc3DArray(&array, &desc, make_hipExtent(size_t(w), size_t(h), size_t(d)), 0));
    std::vector<float4> host(size_t(size[0] * size[1] * size[2]));
    for (long z = 0; z < size[2]; ++z)
      for (long y = 0; y < size[1]; ++y)
        for (long x = 0; x < size[0]; ++x) {
          auto v = texel_value(x, y, z);
          host[size_t((z * size[1] + y) * size[0] + x)] = make_float4(v[0], v[1], v[2], v[3]);
        }
    hipMemcpy3DParms p{};
    p.srcPtr =
        make_hipPitchedPtr(host.data(), size_t(w) * sizeof(float4), size_t(w), size_t(size[1]));
    p.dstArray = array;
    p.extent = make_hipExtent(size_t(w), size_t(size[1]), size_t(size[2]));
    p.kind = hipMemcpyHostToDevice;
    HIP_CHECK(hipMemcpy3D(&p));
  }
  ~FloatArray() { (void)hipFreeArray(array); }
};

hipTextureObject_t make_texture(hipArray_t array, const texref::Mode& m) {
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = array;
  hipTextureDesc td{};
  for (auto& a : td.addressMode) a = m.address;
  td.filterMode = m.filter;
  td.readMode = hipReadModeElementType;
  td.normalizedCoords = m.normalized;
  for (int c = 0; c < 4; ++c) td.borderColor[c] = m.border[c];
  hipTextureObject_t tex = nullptr;
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
  return tex;
}

// Coordinates in texel units covering inside, edges and well outside, fractional too.
std::vector<float> texel_coords(long n) {
  std::vector<float> c;
  for (float u = -2.25f; u <= float(n) + 2.0f; u += 0.375f) c.push_back(u);
  c.push_back(0.5f);
  c.push_back(float(n) - 0.5f);
  return c;
}

const hipTextureAddressMode kModes[] = {hipAddressModeWrap, hipAddressModeClamp,
                                        hipAddressModeMirror, hipAddressModeBorder};
const hipTextureFilterMode kFilters[] = {hipFilterModePoint, hipFilterModeLinear};

std::string describe(const texref::Mode& m) {
  return std::string("address ") + std::to_string(m.address) + " filter " +
         std::to_string(m.filter) + " normalized " + std::to_string(m.normalized);
}

}  // namespace

TEST_CASE("Unit_tex1D_Positive_AllModes") {
  if (!hip_test::kernels_supported()) return;
  FloatArray a(5, 0, 0);
  for (auto address : kModes)
    for (auto filter : kFilters)
      for (bool normalized : {false, true}) {
        texref::Mode m{address, filter, normalized, {9, 8, 7, 6}};
        hipTextureObject_t tex = make_texture(a.array, m);
        std::vector<float> coords;
        for (float u : texel_coords(5)) coords.push_back(normalized ? u / 5 : u);
        std::vector<float4> out;
        run(sample_1d, tex, coords, out);
        for (size_t i = 0; i < coords.size(); ++i) {
          float c[3] = {coords[i], 0, 0};
          check_sample(out[i], 1, a.size, c, m, describe(m) + " x " + std::to_string(coords[i]));
        }
        HIP_CHECK(hipDestroyTextureObject(tex));
      }
}

TEST_CASE("Unit_tex2D_Positive_AllModes") {
  if (!hip_test::kernels_supported()) return;
  FloatArray a(4, 3, 0);
  for (auto address : kModes)
    for (auto filter : kFilters)
      for (bool normalized : {false, true}) {
        texref::Mode m{address, filter, normalized, {-1, 2, -3, 4}};
        hipTextureObject_t tex = make_texture(a.array, m);
        std::vector<float2> coords;
        for (float u : texel_coords(4))
          for (float v : {-1.3f, 0.0f, 0.7f, 1.5f, 2.9f, 3.6f, 5.2f})
            coords.push_back(normalized ? make_float2(u / 4, v / 3) : make_float2(u, v));
        std::vector<float4> out;
        run(sample_2d, tex, coords, out);
        for (size_t i = 0; i < coords.size(); ++i) {
          float c[3] = {coords[i].x, coords[i].y, 0};
          check_sample(out[i], 2, a.size, c, m,
                       describe(m) + " at " + std::to_string(c[0]) + ", " + std::to_string(c[1]));
        }
        HIP_CHECK(hipDestroyTextureObject(tex));
      }
}

TEST_CASE("Unit_tex3D_Positive_AllModes") {
  if (!hip_test::kernels_supported()) return;
  FloatArray a(3, 2, 4);
  for (auto address : kModes)
    for (auto filter : kFilters)
      for (bool normalized : {false, true}) {
        texref::Mode m{address, filter, normalized, {5, 5, 5, 5}};
        hipTextureObject_t tex = make_texture(a.array, m);
        std::vector<float4> coords;
        for (float u : {-0.8f, 0.25f, 1.5f, 2.75f, 3.6f})
          for (float v : {-0.5f, 0.6f, 1.9f, 2.4f})
            for (float w : {-1.1f, 0.5f, 2.2f, 3.9f, 4.7f})
              coords.push_back(normalized ? make_float4(u / 3, v / 2, w / 4, 0)
                                          : make_float4(u, v, w, 0));
        std::vector<float4> out;
        run(sample_3d, tex, coords, out);
        for (size_t i = 0; i < coords.size(); ++i) {
          float c[3] = {coords[i].x, coords[i].y, coords[i].z};
          check_sample(out[i], 3, a.size, c, m,
                       describe(m) + " at " + std::to_string(c[0]) + ", " + std::to_string(c[1]) +
                           ", " + std::to_string(c[2]));
        }
        HIP_CHECK(hipDestroyTextureObject(tex));
      }
}
