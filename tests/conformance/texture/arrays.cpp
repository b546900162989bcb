// SPDX-License-Identifier: MIT
// Conformance: array allocation (hipMallocArray, hipMalloc3DArray, hipArrayCreate,
// hipArray3DCreate, mipmapped arrays), their queries (hipArrayGetInfo,
// hipArrayGetDescriptor, hipArray3DGetDescriptor, hipGetChannelDesc,
// hipGetMipmappedArrayLevel) and frees, with HIP's errors for bad arguments.
#include "hip_test.hpp"

namespace {

hipChannelFormatDesc desc_of(int x, int y, int z, int w, hipChannelFormatKind f) {
  return hipCreateChannelDesc(x, y, z, w, f);
}

}  // namespace

TEST_CASE("Unit_hipMallocArray_Positive_Queries") {
  hipChannelFormatDesc desc = hipCreateChannelDesc<short2>();
  hipArray_t a = nullptr;
  HIP_CHECK(hipMallocArray(&a, &desc, 17, 5, hipArraySurfaceLoadStore));
  REQUIRE(a != nullptr);
  hipChannelFormatDesc got{};
  hipExtent extent{};
  unsigned flags = 99;
  HIP_CHECK(hipArrayGetInfo(&got, &extent, &flags, a));
  CHECK((got.x == 16 && got.y == 16 && got.z == 0 && got.w == 0 &&
         got.f == hipChannelFormatKindSigned));
  CHECK((extent.width == 17 && extent.height == 5 && extent.depth == 0));
  CHECK(flags == hipArraySurfaceLoadStore);
  HIP_CHECK(hipArrayGetInfo(nullptr, nullptr, nullptr, a));  // every output optional
  HIP_ARRAY_DESCRIPTOR d{};
  HIP_CHECK(hipArrayGetDescriptor(&d, a));
  CHECK((d.Width == 17 && d.Height == 5 && d.Format == HIP_AD_FORMAT_SIGNED_INT16 &&
         d.NumChannels == 2));
  HIP_ARRAY3D_DESCRIPTOR d3{};
  HIP_CHECK(hipArray3DGetDescriptor(&d3, a));
  CHECK((d3.Depth == 0 && d3.Flags == hipArraySurfaceLoadStore));
  hipChannelFormatDesc channel{};
  HIP_CHECK(hipGetChannelDesc(&channel, a));
  CHECK(channel.x == 16);
  HIP_CHECK(hipFreeArray(a));
}

TEST_CASE("Unit_hipArray3DCreate_Positive_Shapes") {
  struct Case {
    size_t w, h, d;
    unsigned flags;
  } cases[] = {{64, 0, 0, 0},
               {8, 8, 0, 0},
               {4, 3, 2, 0},
               {16, 0, 5, hipArrayLayered},
               {8, 8, 3, hipArrayLayered},
               {4, 4, 6, hipArrayCubemap},
               {4, 4, 12, hipArrayCubemap | hipArrayLayered}};
  for (const Case& c : cases) {
    INFO(c.w << " x " << c.h << " x " << c.d << " flags " << c.flags);
    HIP_ARRAY3D_DESCRIPTOR d{c.w, c.h, c.d, HIP_AD_FORMAT_UNSIGNED_INT8, 4, c.flags};
    hipArray_t a = nullptr;
    HIP_CHECK(hipArray3DCreate(&a, &d));
    HIP_ARRAY3D_DESCRIPTOR got{};
    HIP_CHECK(hipArray3DGetDescriptor(&got, a));
    CHECK((got.Width == c.w && got.Height == c.h && got.Depth == c.d && got.Flags == c.flags));
    CHECK((got.Format == HIP_AD_FORMAT_UNSIGNED_INT8 && got.NumChannels == 4));
    HIP_CHECK(hipArrayDestroy(a));
  }
  HIP_ARRAY_DESCRIPTOR d2{32, 2, HIP_AD_FORMAT_FLOAT, 1};
  hipArray_t a = nullptr;
  HIP_CHECK(hipArrayCreate(&a, &d2));
  hipExtent e{};
  HIP_CHECK(hipArrayGetInfo(nullptr, &e, nullptr, a));
  CHECK((e.width == 32 && e.height == 2));
  HIP_CHECK(hipArrayDestroy(a));
}

TEST_CASE("Unit_hipMallocArray_Negative_Parameters") {
  hipChannelFormatDesc ok = hipCreateChannelDesc<float>();
  hipArray_t a = nullptr;
  HIP_CHECK_ERROR(hipMallocArray(nullptr, &ok, 4, 4), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMallocArray(&a, nullptr, 4, 4), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMallocArray(&a, &ok, 0, 4), hipErrorInvalidValue);
  hipChannelFormatDesc bad[] = {
      desc_of(32, 32, 32, 0, hipChannelFormatKindFloat),   // three channels
      desc_of(8, 16, 0, 0, hipChannelFormatKindUnsigned),  // mixed sizes
      desc_of(12, 0, 0, 0, hipChannelFormatKindSigned),    // 12-bit channels
      desc_of(8, 0, 0, 0, hipChannelFormatKindFloat),      // 8-bit floats
      desc_of(32, 0, 0, 0, hipChannelFormatKindNone),      // no kind
      desc_of(0, 0, 0, 0, hipChannelFormatKindFloat),      // no channel
      desc_of(32, 0, 32, 0, hipChannelFormatKindFloat),    // a gap
  };
  for (const auto& d : bad) {
    INFO(d.x << " " << d.y << " " << d.z << " " << d.w << " kind " << d.f);
    HIP_CHECK_ERROR(hipMallocArray(&a, &d, 4, 4), hipErrorInvalidValue);
  }
  HIP_CHECK_ERROR(hipMallocArray(&a, &ok, 4, 4, 0x100), hipErrorInvalidValue);  // unknown flag
  HIP_CHECK_ERROR(hipMallocArray(&a, &ok, 4, 4, hipArrayCubemap), hipErrorInvalidValue);

  HIP_ARRAY3D_DESCRIPTOR d{4, 4, 6, HIP_AD_FORMAT_FLOAT, 1, 0};
  d.Format = static_cast<hipArray_Format>(0x05);  // within the enum's range, not a format
  HIP_CHECK_ERROR(hipArray3DCreate(&a, &d), hipErrorInvalidValue);
  d.Format = HIP_AD_FORMAT_FLOAT;
  d.NumChannels = 3;
  HIP_CHECK_ERROR(hipArray3DCreate(&a, &d), hipErrorInvalidValue);
  d.NumChannels = 1;
  d.Flags = hipArrayCubemap;
  d.Height = 5;  // faces must be square
  HIP_CHECK_ERROR(hipArray3DCreate(&a, &d), hipErrorInvalidValue);
  d.Height = 4;
  d.Depth = 5;  // a cube has six faces
  HIP_CHECK_ERROR(hipArray3DCreate(&a, &d), hipErrorInvalidValue);
  d.Flags = 0;
  d.Height = 0;  // a depth without a height
  HIP_CHECK_ERROR(hipArray3DCreate(&a, &d), hipErrorInvalidValue);
  d.Flags = hipArrayLayered;
  d.Depth = 0;  // a layered array without layers
  HIP_CHECK_ERROR(hipArray3DCreate(&a, &d), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipArray3DCreate(&a, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipArrayCreate(&a, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMalloc3DArray(&a, &ok, make_hipExtent(size_t{1} << 40, 1, 1), 0),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipFreeArray_Negative") {
  HIP_CHECK_ERROR(hipFreeArray(nullptr), hipErrorInvalidValue);
  hipChannelFormatDesc desc = hipCreateChannelDesc<int>();
  hipArray_t a = nullptr;
  HIP_CHECK(hipMallocArray(&a, &desc, 8, 1));
  HIP_CHECK(hipFreeArray(a));
  HIP_CHECK_ERROR(hipFreeArray(a), hipErrorInvalidValue);  // freed twice
  HIP_CHECK_ERROR(hipArrayDestroy(a), hipErrorInvalidValue);
  int not_an_array = 0;
  HIP_CHECK_ERROR(hipFreeArray(reinterpret_cast<hipArray_t>(&not_an_array)), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipArrayGetInfo(nullptr, nullptr, nullptr, a), hipErrorInvalidHandle);
  HIP_ARRAY_DESCRIPTOR d{};
  HIP_CHECK_ERROR(hipArrayGetDescriptor(&d, nullptr), hipErrorInvalidHandle);
  HIP_CHECK_ERROR(hipArray3DGetDescriptor(nullptr, a), hipErrorInvalidHandle);
  hipChannelFormatDesc cd{};
  HIP_CHECK_ERROR(hipGetChannelDesc(&cd, a), hipErrorInvalidHandle);
  HIP_CHECK_ERROR(hipGetChannelDesc(nullptr, a), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMallocMipmappedArray_Positive_Levels") {
  hipChannelFormatDesc desc = hipCreateChannelDesc<uchar4>();
  hipMipmappedArray_t mip = nullptr;
  HIP_CHECK(hipMallocMipmappedArray(&mip, &desc, make_hipExtent(16, 8, 0), 5, 0));
  CHECK(mip->width == 16);
  CHECK(mip->max_mipmap_level == 4);
  CHECK(mip->num_channels == 4);
  const size_t widths[] = {16, 8, 4, 2, 1}, heights[] = {8, 4, 2, 1, 1};
  for (unsigned l = 0; l < 5; ++l) {
    hipArray_t level = nullptr;
    HIP_CHECK(hipGetMipmappedArrayLevel(&level, mip, l));
    hipExtent e{};
    HIP_CHECK(hipArrayGetInfo(nullptr, &e, nullptr, level));
    CHECK((e.width == widths[l] && e.height == heights[l]));
    HIP_CHECK_ERROR(hipFreeArray(level), hipErrorInvalidValue);  // the mipmap owns it
  }
  hipArray_t level = nullptr;
  HIP_CHECK_ERROR(hipGetMipmappedArrayLevel(&level, mip, 5), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetMipmappedArrayLevel(nullptr, mip, 0), hipErrorInvalidValue);
  hipArrayMemoryRequirements req{};
  HIP_CHECK(hipMipmappedArrayGetMemoryRequirements(&req, mip, hip_test::device()));
  CHECK(req.size == (16 * 8 + 8 * 4 + 4 * 2 + 2 + 1) * 4);
  HIP_CHECK(hipFreeMipmappedArray(mip));
  HIP_CHECK_ERROR(hipFreeMipmappedArray(mip), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetMipmappedArrayLevel(&level, mip, 0), hipErrorInvalidValue);

  // The driver-style forms; too many levels for the extent is refused.
  HIP_ARRAY3D_DESCRIPTOR d{8, 8, 8, HIP_AD_FORMAT_FLOAT, 1, 0};
  HIP_CHECK(hipMipmappedArrayCreate(&mip, &d, 4));
  HIP_CHECK(hipMipmappedArrayGetLevel(&level, mip, 3));
  HIP_ARRAY3D_DESCRIPTOR got{};
  HIP_CHECK(hipArray3DGetDescriptor(&got, level));
  CHECK((got.Width == 1 && got.Height == 1 && got.Depth == 1));
  HIP_CHECK(hipMipmappedArrayDestroy(mip));
  HIP_CHECK_ERROR(hipMipmappedArrayCreate(&mip, &d, 5), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMipmappedArrayCreate(&mip, &d, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMipmappedArrayCreate(nullptr, &d, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMallocMipmappedArray(&mip, nullptr, make_hipExtent(4, 4, 0), 1, 0),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipFreeMipmappedArray(nullptr), hipErrorInvalidValue);
}
