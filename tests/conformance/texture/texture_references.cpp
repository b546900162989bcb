// SPDX-License-Identifier: MIT
// Conformance: texture references (texture<T, dim, mode> variables): binding to
// linear memory, pitched memory, arrays and mipmaps, sampling them in kernels,
// the hipTexRef* setters and getters (a setter on a bound reference takes effect
// at the next launch), unbinding, hipGetTextureReference, and bad arguments.
#include "hip_test.hpp"

// The calls under test are deprecated in HIP.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include <vector>

texture<float, hipTextureType1D, hipReadModeElementType> g_linear;
texture<float, hipTextureType2D, hipReadModeElementType> g_array;
texture<unsigned char, hipTextureType1D, hipReadModeNormalizedFloat> g_bytes;

namespace {

__global__ void fetch_linear(int n, float* out) {
  for (int i = 0; i < n; ++i) out[i] = tex1Dfetch(g_linear, i);
}

__global__ void sample_array(float x, float y, float* out) { *out = tex2D(g_array, x, y); }

__global__ void fetch_bytes(float* out) { *out = tex1Dfetch(g_bytes, 2); }

float run_sample(float x, float y) {
  hip_test::DeviceBuffer<float> out(1);
  HIP_LAUNCH_CHECK(sample_array, dim3(1), dim3(1), 0, nullptr, x, y, out.get());
  float host = 0;
  HIP_CHECK(hipMemcpy(&host, out.get(), 4, hipMemcpyDeviceToHost));
  return host;
}

}  // namespace

TEST_CASE("Unit_hipBindTexture_Positive_Linear") {
  if (!hip_test::kernels_supported()) return;
  std::vector<float> values = {1.5f, -2.5f, 3.5f, 4.5f};
  hip_test::DeviceBuffer<float> buf(4);
  HIP_CHECK(hipMemcpy(buf.get(), values.data(), 16, hipMemcpyHostToDevice));
  size_t offset = 99;
  HIP_CHECK(hipBindTexture(&offset, g_linear, buf.get()));  // the C++ overload, whole allocation
  CHECK(offset == 0);
  hip_test::DeviceBuffer<float> out(5);
  HIP_LAUNCH_CHECK(fetch_linear, dim3(1), dim3(1), 0, nullptr, 5, out.get());
  std::vector<float> got(5);
  HIP_CHECK(hipMemcpy(got.data(), out.get(), 20, hipMemcpyDeviceToHost));
  CHECK(got == std::vector<float>{1.5f, -2.5f, 3.5f, 4.5f, 0.0f});  // past the end: 0
  size_t align = 1;
  HIP_CHECK(hipGetTextureAlignmentOffset(&align, &g_linear));
  CHECK(align == 0);
  hipDeviceptr_t address = nullptr;
  HIP_CHECK(hipTexRefGetAddress(&address, &g_linear));
  CHECK(address == buf.get());
  HIP_CHECK(hipUnbindTexture(g_linear));
  CHECK(g_linear.textureObject == nullptr);
  HIP_CHECK_ERROR(hipGetTextureAlignmentOffset(&align, &g_linear), hipErrorInvalidTexture);
  HIP_CHECK_ERROR(hipTexRefGetAddress(&address, &g_linear), hipErrorInvalidValue);

  // Normalized bytes through hipTexRefSetAddress and hipTexRefSetFormat.
  hip_test::DeviceBuffer<unsigned char> bytes(256);
  std::vector<unsigned char> b(256, 0);
  b[2] = 51;
  HIP_CHECK(hipMemcpy(bytes.get(), b.data(), 256, hipMemcpyHostToDevice));
  HIP_CHECK(hipTexRefSetFormat(&g_bytes, HIP_AD_FORMAT_UNSIGNED_INT8, 1));
  HIP_CHECK(hipTexRefSetAddress(&offset, &g_bytes, bytes.get(), 256));
  hip_test::DeviceBuffer<float> one(1);
  HIP_LAUNCH_CHECK(fetch_bytes, dim3(1), dim3(1), 0, nullptr, one.get());
  float f = 0;
  HIP_CHECK(hipMemcpy(&f, one.get(), 4, hipMemcpyDeviceToHost));
  CHECK(f == Approx(0.2f));
  hipArray_Format format{};
  int channels = 0;
  HIP_CHECK(hipTexRefGetFormat(&format, &channels, &g_bytes));
  CHECK((format == HIP_AD_FORMAT_UNSIGNED_INT8 && channels == 1));
  HIP_CHECK(hipUnbindTexture(&g_bytes));
}

TEST_CASE("Unit_hipBindTextureToArray_Positive_SettersRebind") {
  if (!hip_test::kernels_supported()) return;
  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  hipArray_t a = nullptr;
  HIP_CHECK(hipMallocArray(&a, &desc, 2, 2));
  float texels[4] = {0, 10, 20, 30};
  HIP_CHECK(hipMemcpy2DToArray(a, 0, 0, texels, 8, 8, 2, hipMemcpyHostToDevice));
  g_array.filterMode = hipFilterModePoint;
  g_array.normalized = 0;
  HIP_CHECK(hipBindTextureToArray(g_array, a));
  CHECK(run_sample(1.0f, 1.0f) == 30);  // point: texel (1, 1)
  hipArray_t bound = nullptr;
  HIP_CHECK(hipTexRefGetArray(&bound, &g_array));
  CHECK(bound == a);

  HIP_CHECK(hipTexRefSetFilterMode(&g_array, hipFilterModeLinear));
  CHECK(run_sample(1.0f, 1.0f) == Approx(15.0f));  // the centre of all four
  hipTextureFilterMode fm{};
  HIP_CHECK(hipTexRefGetFilterMode(&fm, &g_array));
  CHECK(fm == hipFilterModeLinear);

  HIP_CHECK(hipTexRefSetFilterMode(&g_array, hipFilterModePoint));
  HIP_CHECK(
      hipTexRefSetFlags(&g_array, HIP_TRSF_NORMALIZED_COORDINATES | HIP_TRSF_READ_AS_INTEGER));
  CHECK(run_sample(0.75f, 0.25f) == 10);  // normalized: texel (1, 0)
  unsigned flags = 0;
  HIP_CHECK(hipTexRefGetFlags(&flags, &g_array));
  CHECK(flags == (HIP_TRSF_NORMALIZED_COORDINATES | HIP_TRSF_READ_AS_INTEGER));

  HIP_CHECK(hipTexRefSetAddressMode(&g_array, 0, hipAddressModeBorder));
  HIP_CHECK(hipTexRefSetAddressMode(&g_array, 1, hipAddressModeBorder));
  float border[4] = {-7, 0, 0, 0};
  HIP_CHECK(hipTexRefSetBorderColor(&g_array, border));
  CHECK(run_sample(1.5f, 0.25f) == -7);
  float got_border[4] = {};
  HIP_CHECK(hipTexRefGetBorderColor(got_border, &g_array));
  CHECK(got_border[0] == -7);
  hipTextureAddressMode am{};
  HIP_CHECK(hipTexRefGetAddressMode(&am, &g_array, 1));
  CHECK(am == hipAddressModeBorder);

  HIP_CHECK(hipTexRefSetMaxAnisotropy(&g_array, 4));
  int aniso = 0;
  HIP_CHECK(hipTexRefGetMaxAnisotropy(&aniso, &g_array));
  CHECK(aniso == 4);
  HIP_CHECK(hipTexRefSetMipmapFilterMode(&g_array, hipFilterModeLinear));
  HIP_CHECK(hipTexRefGetMipmapFilterMode(&fm, &g_array));
  CHECK(fm == hipFilterModeLinear);
  HIP_CHECK(hipTexRefSetMipmapLevelBias(&g_array, 0.5f));
  float bias = 0, lo = 0, hi = 0;
  HIP_CHECK(hipTexRefGetMipmapLevelBias(&bias, &g_array));
  CHECK(bias == 0.5f);
  HIP_CHECK(hipTexRefSetMipmapLevelClamp(&g_array, 1, 3));
  HIP_CHECK(hipTexRefGetMipmapLevelClamp(&lo, &hi, &g_array));
  CHECK((lo == 1 && hi == 3));
  HIP_CHECK_ERROR(hipTexRefSetMipmapLevelClamp(&g_array, 3, 1), hipErrorInvalidValue);

  HIP_CHECK(hipTexRefSetArray(&g_array, a, HIP_TRSA_OVERRIDE_FORMAT));
  HIP_CHECK(hipUnbindTexture(&g_array));
  HIP_CHECK_ERROR(hipTexRefGetArray(&bound, &g_array), hipErrorInvalidValue);
  HIP_CHECK(hipFreeArray(a));
  // Reset the shared reference's state for other tests.
  HIP_CHECK(hipTexRefSetFlags(&g_array, HIP_TRSF_READ_AS_INTEGER));
  HIP_CHECK(hipTexRefSetAddressMode(&g_array, 0, hipAddressModeClamp));
  HIP_CHECK(hipTexRefSetAddressMode(&g_array, 1, hipAddressModeClamp));
}

TEST_CASE("Unit_hipBindTexture2D_Positive_Pitched") {
  if (!hip_test::kernels_supported()) return;
  void* ptr = nullptr;
  size_t pitch = 0;
  HIP_CHECK(hipMallocPitch(&ptr, &pitch, 3 * sizeof(float), 2));
  float rows[2][3] = {{1, 2, 3}, {4, 5, 6}};
  HIP_CHECK(hipMemcpy2D(ptr, pitch, rows, 12, 12, 2, hipMemcpyHostToDevice));
  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  size_t offset = 1;
  HIP_CHECK(hipBindTexture2D(&offset, &g_array, ptr, &desc, 3, 2, pitch));
  CHECK(run_sample(2.5f, 1.5f) == 6);
  HIP_CHECK(hipUnbindTexture(&g_array));
  HIP_ARRAY_DESCRIPTOR d{3, 2, HIP_AD_FORMAT_FLOAT, 1};
  HIP_CHECK(hipTexRefSetAddress2D(&g_array, &d, ptr, pitch));
  CHECK(run_sample(0.5f, 1.5f) == 4);
  HIP_CHECK(hipUnbindTexture(&g_array));
  HIP_CHECK(hipFree(ptr));
}

TEST_CASE("Unit_hipBindTextureToMipmappedArray_Positive") {
  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  hipMipmappedArray_t mip = nullptr;
  HIP_CHECK(hipMallocMipmappedArray(&mip, &desc, make_hipExtent(4, 4, 0), 2, 0));
  textureReference ref = g_array;
  ref.textureObject = nullptr;
  ref.normalized = 1;
  HIP_CHECK(hipBindTextureToMipmappedArray(&ref, mip, &desc));
  hipMipmappedArray_t got = nullptr;
  HIP_CHECK(hipTexRefGetMipMappedArray(&got, &ref));
  CHECK(got == mip);
  HIP_CHECK(hipUnbindTexture(&ref));
  HIP_CHECK(hipTexRefSetMipmappedArray(&ref, mip, 0));
  HIP_CHECK(hipUnbindTexture(&ref));
  ref.normalized = 0;  // a mipmap is sampled with normalized coordinates
  HIP_CHECK_ERROR(hipBindTextureToMipmappedArray(&ref, mip, &desc), hipErrorInvalidValue);
  HIP_CHECK(hipFreeMipmappedArray(mip));
}

TEST_CASE("Unit_hipGetTextureReference") {
  const textureReference* ref = nullptr;
  HIP_CHECK(hipGetTextureReference(&ref, &g_linear));
  CHECK(ref == &g_linear);
  int local = 0;
  HIP_CHECK_ERROR(hipGetTextureReference(&ref, &local), hipErrorInvalidSymbol);  // stack memory
  HIP_CHECK_ERROR(hipGetTextureReference(&ref, nullptr), hipErrorInvalidSymbol);
  HIP_CHECK_ERROR(hipGetTextureReference(nullptr, &g_linear), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipTexRef_Negative_Parameters") {
  hip_test::DeviceBuffer<float> buf(16);
  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  size_t offset = 0;
  HIP_CHECK_ERROR(hipBindTexture(&offset, nullptr, buf.get(), &desc, 64), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipBindTexture(&offset, &g_linear, buf.get(), nullptr, 64), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipBindTexture(&offset, &g_linear, nullptr, &desc, 64), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipBindTextureToArray(&g_array, nullptr, &desc), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipUnbindTexture(nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipTexRefSetAddressMode(&g_array, 3, hipAddressModeClamp), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipTexRefSetAddressMode(nullptr, 0, hipAddressModeClamp), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipTexRefSetFlags(&g_array, 0x80), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipTexRefSetFormat(&g_array, HIP_AD_FORMAT_FLOAT, 3), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipTexRefSetBorderColor(&g_array, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipTexRefSetArray(&g_array, nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipTexRefSetArray(&g_array, nullptr, 0x10), hipErrorInvalidValue);
  hipTextureFilterMode fm{};
  HIP_CHECK_ERROR(hipTexRefGetFilterMode(nullptr, &g_array), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipTexRefGetFilterMode(&fm, nullptr), hipErrorInvalidValue);
  hipTextureAddressMode am{};
  HIP_CHECK_ERROR(hipTexRefGetAddressMode(&am, &g_array, -1), hipErrorInvalidValue);
  float lo = 0;
  HIP_CHECK_ERROR(hipTexRefGetMipmapLevelClamp(&lo, nullptr, &g_array), hipErrorInvalidValue);
  hipArray_Format f{};
  HIP_CHECK_ERROR(hipTexRefGetFormat(&f, nullptr, &g_array), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipModuleGetTexRef_Negative") {
  textureReference* ref = nullptr;
  int fake = 0;
  HIP_CHECK_ERROR(hipModuleGetTexRef(nullptr, nullptr, "tex"), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipModuleGetTexRef(&ref, nullptr, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipModuleGetTexRef(&ref, reinterpret_cast<hipModule_t>(&fake), "tex"),
                  hipErrorInvalidResourceHandle);
}
