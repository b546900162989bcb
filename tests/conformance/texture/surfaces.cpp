// SPDX-License-Identifier: MIT
// Conformance: surface objects: kernels write and read arrays through
// surf1D/2D/3D(Layered)write/read (x in bytes), out-of-range accesses in zero and
// clamp modes, and bad arguments to hipCreateSurfaceObject/hipDestroySurfaceObject.
#include "hip_test.hpp"

#include <vector>

namespace {

__global__ void write_2d(hipSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h)
    surf2Dwrite(make_uint2(unsigned(x), unsigned(y * 100)), s, x * int(sizeof(uint2)), y);
}

// Reads (x, y) of every probe (in elements) with `mode`.
__global__ void read_2d(hipSurfaceObject_t s, const int2* at, int n, int mode, uint2* out) {
  for (int i = 0; i < n; ++i) surf2Dread(&out[i], s, at[i].x * int(sizeof(uint2)), at[i].y, mode);
}

__global__ void copy_1d(hipSurfaceObject_t from, hipSurfaceObject_t to, int n) {
  for (int x = 0; x < n; ++x) {
    float v = 0;
    surf1Dread(&v, from, x * 4);
    surf1Dwrite(v * 2, to, x * 4);
  }
  surf1Dwrite(123.0f, to, n * 4);  // out of range in zero mode: dropped
}

__global__ void write_3d(hipSurfaceObject_t s, int w, int h, int d) {
  for (int z = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) surf3Dwrite(short(x + 10 * y + 100 * z), s, x * 2, y, z);
}

__global__ void write_layered(hipSurfaceObject_t s2, hipSurfaceObject_t s1, int layer) {
  surf2DLayeredwrite(float(layer) + 0.5f, s2, 4, 1, layer);
  surf1DLayeredwrite(-1.0f - float(layer), s1, 4, layer);
}

hipSurfaceObject_t surface_of(hipArray_t a) {
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = a;
  hipSurfaceObject_t s = nullptr;
  HIP_CHECK(hipCreateSurfaceObject(&s, &res));
  return s;
}

}  // namespace

TEST_CASE("Unit_surf2D_Positive_WriteRead") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kW = 5, kH = 3;
  hipChannelFormatDesc desc = hipCreateChannelDesc<uint2>();
  hipArray_t a = nullptr;
  HIP_CHECK(hipMallocArray(&a, &desc, kW, kH, hipArraySurfaceLoadStore));
  hipSurfaceObject_t s = surface_of(a);
  HIP_LAUNCH_CHECK(write_2d, dim3(1, kH), dim3(8), 0, nullptr, s, kW, kH);
  std::vector<uint2> host(kW * kH);
  HIP_CHECK(hipMemcpy2DFromArray(host.data(), kW * 8, a, 0, 0, kW * 8, kH, hipMemcpyDeviceToHost));
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      INFO("x " << x << " y " << y);
      CHECK(host[size_t(y * kW + x)].x == unsigned(x));
      CHECK(host[size_t(y * kW + x)].y == unsigned(y * 100));
    }
  std::vector<int2> probes = {make_int2(4, 2), make_int2(5, 0), make_int2(-1, 1), make_int2(2, 3)};
  hip_test::DeviceBuffer<int2> d_probes(probes.size());
  HIP_CHECK(hipMemcpy(d_probes.get(), probes.data(), d_probes.bytes(), hipMemcpyHostToDevice));
  hip_test::DeviceBuffer<uint2> out(probes.size());
  std::vector<uint2> got(probes.size());
  HIP_LAUNCH_CHECK(read_2d, dim3(1), dim3(1), 0, nullptr, s, d_probes.get(), 4,
                   int(hipBoundaryModeZero), out.get());
  HIP_CHECK(hipMemcpy(got.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  CHECK((got[0].x == 4 && got[0].y == 200));
  for (int i = 1; i < 4; ++i)
    CHECK((got[size_t(i)].x == 0 && got[size_t(i)].y == 0));  // outside: zero
  HIP_LAUNCH_CHECK(read_2d, dim3(1), dim3(1), 0, nullptr, s, d_probes.get(), 4,
                   int(hipBoundaryModeClamp), out.get());
  HIP_CHECK(hipMemcpy(got.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  CHECK((got[1].x == 4 && got[1].y == 0));    // (5, 0) clamps to (4, 0)
  CHECK((got[2].x == 0 && got[2].y == 100));  // (-1, 1) to (0, 1)
  CHECK((got[3].x == 2 && got[3].y == 200));  // (2, 3) to (2, 2)
  HIP_CHECK(hipDestroySurfaceObject(s));
  HIP_CHECK(hipFreeArray(a));
}

TEST_CASE("Unit_surf1D_surf3D_Positive") {
  if (!hip_test::kernels_supported()) return;
  hipChannelFormatDesc fdesc = hipCreateChannelDesc<float>();
  hipArray_t from = nullptr, to = nullptr;
  HIP_CHECK(hipMallocArray(&from, &fdesc, 6, 0, hipArraySurfaceLoadStore));
  HIP_CHECK(hipMallocArray(&to, &fdesc, 6, 0, hipArraySurfaceLoadStore));
  std::vector<float> values = {1, 2, 3, 4, 5, 6};
  HIP_CHECK(hipMemcpyHtoA(from, 0, values.data(), 24));
  hipSurfaceObject_t s_from = surface_of(from), s_to = surface_of(to);
  HIP_LAUNCH_CHECK(copy_1d, dim3(1), dim3(1), 0, nullptr, s_from, s_to, 6);
  std::vector<float> got(6);
  HIP_CHECK(hipMemcpyAtoH(got.data(), to, 0, 24));
  CHECK(got == std::vector<float>{2, 4, 6, 8, 10, 12});
  HIP_CHECK(hipDestroySurfaceObject(s_from));
  HIP_CHECK(hipDestroySurfaceObject(s_to));
  HIP_CHECK(hipFreeArray(from));
  HIP_CHECK(hipFreeArray(to));

  hipChannelFormatDesc sdesc = hipCreateChannelDesc<short>();
  hipArray_t vol = nullptr;
  HIP_CHECK(hipMalloc3DArray(&vol, &sdesc, make_hipExtent(3, 2, 2), hipArraySurfaceLoadStore));
  hipSurfaceObject_t s = surface_of(vol);
  HIP_LAUNCH_CHECK(write_3d, dim3(1), dim3(1), 0, nullptr, s, 3, 2, 2);
  std::vector<short> v(12);
  HIP_CHECK(hipMemcpyAtoH(v.data(), vol, 0, 24));
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x)
        CHECK(v[size_t(z * 6 + y * 3 + x)] == short(x + 10 * y + 100 * z));
  HIP_CHECK(hipDestroySurfaceObject(s));
  HIP_CHECK(hipFreeArray(vol));
}

TEST_CASE("Unit_surfLayered_Positive") {
  if (!hip_test::kernels_supported()) return;
  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  // A 2D layered surface (2 x 2, 3 layers) and a 1D layered one (2 texels, 3 layers): each
  // form on the geometry it names (GPUs address a surface by its own geometry).
  hipArray_t a = nullptr, a1 = nullptr;
  HIP_CHECK(hipMalloc3DArray(&a, &desc, make_hipExtent(2, 2, 3),
                             hipArrayLayered | hipArraySurfaceLoadStore));
  HIP_CHECK(hipMalloc3DArray(&a1, &desc, make_hipExtent(2, 0, 3),
                             hipArrayLayered | hipArraySurfaceLoadStore));
  std::vector<float> zero(12, 0);
  HIP_CHECK(hipMemcpyHtoA(a, 0, zero.data(), 48));
  HIP_CHECK(hipMemcpyHtoA(a1, 0, zero.data(), 24));
  hipSurfaceObject_t s = surface_of(a), s1 = surface_of(a1);
  for (int layer = 0; layer < 3; ++layer)
    HIP_LAUNCH_CHECK(write_layered, dim3(1), dim3(1), 0, nullptr, s, s1, layer);
  std::vector<float> got(12), got1(6);
  HIP_CHECK(hipMemcpyAtoH(got.data(), a, 0, 48));
  HIP_CHECK(hipMemcpyAtoH(got1.data(), a1, 0, 24));
  for (int layer = 0; layer < 3; ++layer) {
    INFO("layer " << layer);
    CHECK(got[size_t(layer * 4 + 3)] == float(layer) + 0.5f);
    CHECK(got[size_t(layer * 4 + 0)] == 0.0f);
    CHECK(got1[size_t(layer * 2 + 1)] == -1.0f - float(layer));
    CHECK(got1[size_t(layer * 2 + 0)] == 0.0f);
  }
  HIP_CHECK(hipDestroySurfaceObject(s));
  HIP_CHECK(hipDestroySurfaceObject(s1));
  HIP_CHECK(hipFreeArray(a));
  HIP_CHECK(hipFreeArray(a1));
}

TEST_CASE("Unit_hipCreateSurfaceObject_Negative") {
  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  hipArray_t a = nullptr;
  HIP_CHECK(hipMallocArray(&a, &desc, 4, 4, hipArraySurfaceLoadStore));
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = a;
  hipSurfaceObject_t s = nullptr;
  HIP_CHECK_ERROR(hipCreateSurfaceObject(nullptr, &res), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipCreateSurfaceObject(&s, nullptr), hipErrorInvalidValue);
  hipResourceDesc lin{};
  lin.resType = hipResourceTypeLinear;
  HIP_CHECK_ERROR(hipCreateSurfaceObject(&s, &lin), hipErrorInvalidValue);
  res.res.array.array = nullptr;
  HIP_CHECK_ERROR(hipCreateSurfaceObject(&s, &res), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDestroySurfaceObject(nullptr), hipErrorInvalidValue);
  int fake = 0;
  HIP_CHECK_ERROR(hipDestroySurfaceObject(reinterpret_cast<hipSurfaceObject_t>(&fake)),
                  hipErrorInvalidValue);
  res.res.array.array = a;
  HIP_CHECK(hipCreateSurfaceObject(&s, &res));
  HIP_CHECK(hipDestroySurfaceObject(s));
  HIP_CHECK_ERROR(hipDestroySurfaceObject(s), hipErrorInvalidValue);
  HIP_CHECK(hipFreeArray(a));
}
