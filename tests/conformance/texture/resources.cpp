// SPDX-License-Identifier: MIT
// Conformance: what a texture object can read: linear memory (tex1Dfetch),
// pitched 2D memory, layered arrays, cube maps, mipmapped arrays (tex2DLod, level
// clamps, linear filtering between levels) and resource views.
#include "hip_test.hpp"

#include <vector>

namespace {

__global__ void fetch_linear(hipTextureObject_t tex, int n, int* out) {
  for (int i = 0; i < n; ++i) out[i] = tex1Dfetch<int>(tex, i - 2);
}

__global__ void fetch_linear_norm(hipTextureObject_t tex, float* out) {
  *out = tex1Dfetch<float>(tex, 1);
}

__global__ void pitch_2d(hipTextureObject_t tex, float x, float y, float* out) {
  *out = tex2D<float>(tex, x, y);
}

__global__ void layered_2d(hipTextureObject_t tex, float x, float y, int layer, float* out) {
  *out = tex2DLayered<float>(tex, x, y, layer);
}

__global__ void layered_1d(hipTextureObject_t tex, float x, int layer, float* out) {
  *out = tex1DLayered<float>(tex, x, layer);
}

__global__ void cube(hipTextureObject_t tex, float x, float y, float z, float* out) {
  *out = texCubemap<float>(tex, x, y, z);
}

__global__ void lod_2d(hipTextureObject_t tex, float x, float y, float level, float* out) {
  *out = tex2DLod<float>(tex, x, y, level);
}

template <typename Launch>
float one_float(Launch&& launch) {
  float* out = nullptr;
  HIP_CHECK(hipMalloc(&out, sizeof(float)));
  launch(out);
  HIP_CHECK(hipGetLastError());
  float host = 0;
  HIP_CHECK(hipMemcpy(&host, out, sizeof host, hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(out));
  return host;
}

hipTextureObject_t array_texture(hipArray_t array, hipTextureFilterMode filter = hipFilterModePoint,
                                 bool normalized = false,
                                 hipTextureAddressMode address = hipAddressModeClamp) {
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = array;
  hipTextureDesc td{};
  for (auto& a : td.addressMode) a = address;
  td.filterMode = filter;
  td.normalizedCoords = normalized;
  hipTextureObject_t tex = nullptr;
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
  return tex;
}

// A float array whose slice s is filled with the value base + s.
hipArray_t slices(size_t w, size_t h, size_t depth, unsigned flags, float base) {
  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  hipArray_t a = nullptr;
  HIP_CHECK(hipMalloc3DArray(&a, &desc, make_hipExtent(w, h, depth), flags));
  const size_t rows = h ? h : 1;
  std::vector<float> host(w * rows * depth);
  for (size_t i = 0; i < host.size(); ++i) host[i] = base + float(i / (w * rows));
  hipMemcpy3DParms p{};
  p.srcPtr = make_hipPitchedPtr(host.data(), w * sizeof(float), w, rows);
  p.dstArray = a;
  p.extent = make_hipExtent(w, rows, depth);
  p.kind = hipMemcpyHostToDevice;
  HIP_CHECK(hipMemcpy3D(&p));
  return a;
}

}  // namespace

TEST_CASE("Unit_tex1Dfetch_Positive_Linear") {
  if (!hip_test::kernels_supported()) return;
  std::vector<int> values = {10, -20, 30, 40, 50};
  hip_test::DeviceBuffer<int> buf(values.size());
  HIP_CHECK(hipMemcpy(buf.get(), values.data(), buf.bytes(), hipMemcpyHostToDevice));
  hipResourceDesc res{};
  res.resType = hipResourceTypeLinear;
  res.res.linear.devPtr = buf.get();
  res.res.linear.desc = hipCreateChannelDesc<int>();
  res.res.linear.sizeInBytes = buf.bytes();
  hipTextureDesc td{};
  hipTextureObject_t tex = nullptr;
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
  hip_test::DeviceBuffer<int> out(9);
  HIP_LAUNCH_CHECK(fetch_linear, dim3(1), dim3(1), 0, nullptr, tex, 9, out.get());
  std::vector<int> got(9);
  HIP_CHECK(hipMemcpy(got.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  // Indices -2..6: outside the resource a fetch returns 0.
  std::vector<int> want = {0, 0, 10, -20, 30, 40, 50, 0, 0};
  CHECK(got == want);
  HIP_CHECK(hipDestroyTextureObject(tex));

  // Normalized reads of unsigned bytes.
  hip_test::DeviceBuffer<unsigned char> bytes(256);
  std::vector<unsigned char> ramp(256);
  for (int i = 0; i < 256; ++i) ramp[size_t(i)] = static_cast<unsigned char>(255 - i);
  HIP_CHECK(hipMemcpy(bytes.get(), ramp.data(), 256, hipMemcpyHostToDevice));
  res.res.linear.devPtr = bytes.get();
  res.res.linear.desc = hipCreateChannelDesc<unsigned char>();
  res.res.linear.sizeInBytes = 256;
  td.readMode = hipReadModeNormalizedFloat;
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
  CHECK(one_float([&](float* o) {
          hipLaunchKernelGGL(fetch_linear_norm, dim3(1), dim3(1), 0, nullptr, tex, o);
        }) == Approx(254 / 255.0f));
  HIP_CHECK(hipDestroyTextureObject(tex));
}

TEST_CASE("Unit_tex2D_Positive_Pitch2D") {
  if (!hip_test::kernels_supported()) return;
  constexpr size_t kW = 3, kH = 2;
  void* ptr = nullptr;
  size_t pitch = 0;
  HIP_CHECK(hipMallocPitch(&ptr, &pitch, kW * sizeof(float), kH));
  float rows[kH][kW] = {{1, 2, 3}, {5, 6, 7}};
  HIP_CHECK(hipMemcpy2D(ptr, pitch, rows, kW * sizeof(float), kW * sizeof(float), kH,
                        hipMemcpyHostToDevice));
  hipResourceDesc res{};
  res.resType = hipResourceTypePitch2D;
  res.res.pitch2D.devPtr = ptr;
  res.res.pitch2D.desc = hipCreateChannelDesc<float>();
  res.res.pitch2D.width = kW;
  res.res.pitch2D.height = kH;
  res.res.pitch2D.pitchInBytes = pitch;
  hipTextureDesc td{};
  td.filterMode = hipFilterModeLinear;
  hipTextureObject_t tex = nullptr;
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
  // The centre of the four texels 1, 2, 5, 6.
  CHECK(one_float([&](float* o) {
          hipLaunchKernelGGL(pitch_2d, dim3(1), dim3(1), 0, nullptr, tex, 1.0f, 1.0f, o);
        }) == Approx(3.5f));
  CHECK(one_float([&](float* o) {
          hipLaunchKernelGGL(pitch_2d, dim3(1), dim3(1), 0, nullptr, tex, 2.5f, 1.5f, o);
        }) == Approx(7.0f));
  HIP_CHECK(hipDestroyTextureObject(tex));
  HIP_CHECK(hipFree(ptr));
}

TEST_CASE("Unit_tex2DLayered_Positive") {
  if (!hip_test::kernels_supported()) return;
  hipArray_t a = slices(4, 4, 3, hipArrayLayered, 100);
  hipTextureObject_t tex = array_texture(a, hipFilterModeLinear);
  for (int layer : {0, 1, 2}) {
    float got = one_float([&](float* o) {
      hipLaunchKernelGGL(layered_2d, dim3(1), dim3(1), 0, nullptr, tex, 1.3f, 2.2f, layer, o);
    });
    CHECK(got == Approx(100 + layer));  // layers never blend
  }
  // Layers outside the array clamp to the first and last.
  CHECK(one_float([&](float* o) {
          hipLaunchKernelGGL(layered_2d, dim3(1), dim3(1), 0, nullptr, tex, 1.f, 1.f, 7, o);
        }) == 102);
  HIP_CHECK(hipDestroyTextureObject(tex));
  HIP_CHECK(hipFreeArray(a));

  hipArray_t b = slices(5, 0, 2, hipArrayLayered, 7);
  tex = array_texture(b);
  CHECK(one_float([&](float* o) {
          hipLaunchKernelGGL(layered_1d, dim3(1), dim3(1), 0, nullptr, tex, 3.5f, 1, o);
        }) == 8);
  HIP_CHECK(hipDestroyTextureObject(tex));
  HIP_CHECK(hipFreeArray(b));
}

TEST_CASE("Unit_texCubemap_Positive_Faces") {
  if (!hip_test::kernels_supported()) return;
  hipArray_t a = slices(2, 2, 6, hipArrayCubemap, 0);
  hipTextureObject_t tex = array_texture(a, hipFilterModePoint, true);
  struct Dir {
    float x, y, z;
    float face;
  } dirs[] = {{1, 0.2f, -0.1f, 0},  {-1, 0.3f, 0.4f, 1}, {0.1f, 1, 0.2f, 2},
              {0.2f, -1, -0.3f, 3}, {0.3f, 0.1f, 1, 4},  {-0.2f, 0.3f, -1, 5}};
  for (const Dir& d : dirs) {
    INFO("direction " << d.x << ", " << d.y << ", " << d.z);
    CHECK(one_float([&](float* o) {
            hipLaunchKernelGGL(cube, dim3(1), dim3(1), 0, nullptr, tex, d.x, d.y, d.z, o);
          }) == d.face);
  }
  HIP_CHECK(hipDestroyTextureObject(tex));
  HIP_CHECK(hipFreeArray(a));
}

TEST_CASE("Unit_tex2DLod_Positive_Mipmap") {
  if (!hip_test::kernels_supported()) return;
  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  hipMipmappedArray_t mip = nullptr;
  HIP_CHECK(hipMallocMipmappedArray(&mip, &desc, make_hipExtent(8, 8, 0), 3, 0));
  for (unsigned level = 0; level < 3; ++level) {
    hipArray_t a = nullptr;
    HIP_CHECK(hipGetMipmappedArrayLevel(&a, mip, level));
    size_t w = 8u >> level;
    std::vector<float> host(w * w, float(level * 10));
    HIP_CHECK(hipMemcpy2DToArray(a, 0, 0, host.data(), w * sizeof(float), w * sizeof(float), w,
                                 hipMemcpyHostToDevice));
  }
  hipResourceDesc res{};
  res.resType = hipResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = mip;
  hipTextureDesc td{};
  td.normalizedCoords = 1;
  td.maxMipmapLevelClamp = 2;
  td.mipmapFilterMode = hipFilterModePoint;
  hipTextureObject_t tex = nullptr;
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
  auto at = [&](hipTextureObject_t t, float level) {
    return one_float([&](float* o) {
      hipLaunchKernelGGL(lod_2d, dim3(1), dim3(1), 0, nullptr, t, 0.3f, 0.6f, level, o);
    });
  };
  CHECK(at(tex, 0) == 0);
  CHECK(at(tex, 0.4f) == 0);
  CHECK(at(tex, 0.6f) == 10);
  CHECK(at(tex, 2) == 20);
  CHECK(at(tex, 9) == 20);  // clamped to the last level
  HIP_CHECK(hipDestroyTextureObject(tex));

  td.mipmapFilterMode = hipFilterModeLinear;
  td.maxMipmapLevelClamp = 1;  // level 2 is out of reach
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
  CHECK(at(tex, 0.25f) == Approx(2.5f));
  CHECK(at(tex, 2) == 10);
  HIP_CHECK(hipDestroyTextureObject(tex));

  // A view that starts at level 1; its extent is the resource's (level 0), as CUDA requires
  // of views in formats that are not block-compressed (the H200 refuses 4 x 4 here).
  hipResourceViewDesc view{};
  view.format = hipResViewFormatFloat1;
  view.width = 8;
  view.height = 8;
  view.firstMipmapLevel = 1;
  view.lastMipmapLevel = 2;
  td.mipmapFilterMode = hipFilterModePoint;
  td.maxMipmapLevelClamp = 5;
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, &view));
  CHECK(at(tex, 0) == 10);
  CHECK(at(tex, 1) == 20);
  hipResourceViewDesc got{};
  HIP_CHECK(hipGetTextureObjectResourceViewDesc(&got, tex));
  CHECK(got.firstMipmapLevel == 1);
  CHECK(got.lastMipmapLevel == 2);
  HIP_CHECK(hipDestroyTextureObject(tex));
  HIP_CHECK(hipFreeMipmappedArray(mip));
}

TEST_CASE("Unit_hipCreateTextureObject_Positive_ViewFormat") {
  if (!hip_test::kernels_supported()) return;
  // Unsigned 32-bit texels holding float bits, viewed as floats.
  hipChannelFormatDesc desc = hipCreateChannelDesc<unsigned int>();
  hipArray_t a = nullptr;
  HIP_CHECK(hipMallocArray(&a, &desc, 2, 1));
  float values[2] = {1.25f, -8.5f};
  HIP_CHECK(hipMemcpy2DToArray(a, 0, 0, values, 8, 8, 1, hipMemcpyHostToDevice));
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = a;
  hipTextureDesc td{};
  td.filterMode = hipFilterModeLinear;
  hipResourceViewDesc view{};
  view.format = hipResViewFormatFloat1;
  view.width = 2;
  view.height = 1;
  hipTextureObject_t tex = nullptr;
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, &view));
  CHECK(one_float([&](float* o) {
          hipLaunchKernelGGL(pitch_2d, dim3(1), dim3(1), 0, nullptr, tex, 1.0f, 0.5f, o);
        }) == Approx((1.25f - 8.5f) / 2));
  HIP_CHECK(hipDestroyTextureObject(tex));
  // A view whose elements differ in size from the array's is refused.
  view.format = hipResViewFormatUnsignedShort1;
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &res, &td, &view), hipErrorInvalidValue);
  HIP_CHECK(hipFreeArray(a));
}
