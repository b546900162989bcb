// SPDX-License-Identifier: MIT
// Conformance: texture object calls without kernels: what hipGetTextureObject*
// and hipTexObjectGet* return, the driver-style descriptors' conversions, and
// HIP's errors for bad descriptors, handles and outputs.
#include "hip_test.hpp"

#include <vector>

namespace {

struct Array2D {
  hipArray_t array = nullptr;
  explicit Array2D(hipChannelFormatDesc desc, size_t w = 8, size_t h = 8) {
    HIP_CHECK(hipMallocArray(&array, &desc, w, h));
  }
  ~Array2D() { (void)hipFreeArray(array); }
};

hipResourceDesc array_resource(hipArray_t a) {
  hipResourceDesc r{};
  r.resType = hipResourceTypeArray;
  r.res.array.array = a;
  return r;
}

}  // namespace

TEST_CASE("Unit_hipGetTextureObjectDesc_Positive_RoundTrip") {
  Array2D a(hipCreateChannelDesc<uchar4>());
  hipResourceDesc res = array_resource(a.array);
  hipTextureDesc td{};
  td.addressMode[0] = hipAddressModeWrap;
  td.addressMode[1] = hipAddressModeMirror;
  td.addressMode[2] = hipAddressModeBorder;
  td.filterMode = hipFilterModeLinear;
  td.readMode = hipReadModeNormalizedFloat;
  td.normalizedCoords = 1;
  td.borderColor[1] = 0.25f;
  td.sRGB = 1;
  hipTextureObject_t tex = nullptr;
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
  hipResourceDesc got_res{};
  HIP_CHECK(hipGetTextureObjectResourceDesc(&got_res, tex));
  CHECK(got_res.resType == hipResourceTypeArray);
  CHECK(got_res.res.array.array == a.array);
  hipTextureDesc got_td{};
  HIP_CHECK(hipGetTextureObjectTextureDesc(&got_td, tex));
  CHECK(got_td.addressMode[1] == hipAddressModeMirror);
  CHECK(got_td.filterMode == hipFilterModeLinear);
  CHECK(got_td.borderColor[1] == 0.25f);
  CHECK(got_td.sRGB == 1);
  hipResourceViewDesc view{};
  HIP_CHECK(hipGetTextureObjectResourceViewDesc(&view, tex));
  CHECK((view.width == 8 && view.height == 8 && view.lastMipmapLevel == 0));
  // The driver-style views of the same object.
  HIP_RESOURCE_DESC dres{};
  HIP_CHECK(hipTexObjectGetResourceDesc(&dres, tex));
  CHECK(dres.resType == HIP_RESOURCE_TYPE_ARRAY);
  CHECK(dres.res.array.hArray == a.array);
  HIP_TEXTURE_DESC dtd{};
  HIP_CHECK(hipTexObjectGetTextureDesc(&dtd, tex));
  CHECK(dtd.flags ==
        (HIP_TRSF_NORMALIZED_COORDINATES | HIP_TRSF_SRGB));  // normalized float: no READ_AS_INTEGER
  CHECK(dtd.addressMode[2] == HIP_TR_ADDRESS_MODE_BORDER);
  HIP_RESOURCE_VIEW_DESC dview{};
  HIP_CHECK(hipTexObjectGetResourceViewDesc(&dview, tex));
  CHECK(dview.width == 8);
  HIP_CHECK(hipDestroyTextureObject(tex));
  HIP_CHECK_ERROR(hipDestroyTextureObject(tex), hipErrorInvalidValue);  // destroyed twice
  HIP_CHECK(hipDestroyTextureObject(nullptr));
}

TEST_CASE("Unit_hipTexObjectCreate_Positive_DriverForm") {
  hip_test::DeviceBuffer<short> buf(64);
  HIP_RESOURCE_DESC res{};
  res.resType = HIP_RESOURCE_TYPE_LINEAR;
  res.res.linear.devPtr = buf.get();
  res.res.linear.format = HIP_AD_FORMAT_SIGNED_INT16;
  res.res.linear.numChannels = 2;
  res.res.linear.sizeInBytes = buf.bytes();
  HIP_TEXTURE_DESC td{};
  td.flags = HIP_TRSF_READ_AS_INTEGER;
  hipTextureObject_t tex = nullptr;
  HIP_CHECK(hipTexObjectCreate(&tex, &res, &td, nullptr));
  hipResourceDesc rt{};
  HIP_CHECK(hipGetTextureObjectResourceDesc(&rt, tex));
  CHECK(rt.resType == hipResourceTypeLinear);
  CHECK((rt.res.linear.desc.x == 16 && rt.res.linear.desc.y == 16 &&
         rt.res.linear.desc.f == hipChannelFormatKindSigned));
  hipTextureDesc ttd{};
  HIP_CHECK(hipGetTextureObjectTextureDesc(&ttd, tex));
  CHECK(ttd.readMode == hipReadModeElementType);
  HIP_RESOURCE_DESC back{};
  HIP_CHECK(hipTexObjectGetResourceDesc(&back, tex));
  CHECK((back.res.linear.format == HIP_AD_FORMAT_SIGNED_INT16 && back.res.linear.numChannels == 2));
  HIP_CHECK(hipTexObjectDestroy(tex));
  // Without READ_AS_INTEGER the driver form promotes integers to normalized floats.
  td.flags = 0;
  HIP_CHECK(hipTexObjectCreate(&tex, &res, &td, nullptr));
  HIP_CHECK(hipGetTextureObjectTextureDesc(&ttd, tex));
  CHECK(ttd.readMode == hipReadModeNormalizedFloat);
  HIP_CHECK(hipTexObjectDestroy(tex));
  res.flags = 1;
  HIP_CHECK_ERROR(hipTexObjectCreate(&tex, &res, &td, nullptr), hipErrorInvalidValue);
  res.flags = 0;
  td.flags = 0x100;
  HIP_CHECK_ERROR(hipTexObjectCreate(&tex, &res, &td, nullptr), hipErrorInvalidValue);
  td.flags = 0;
  res.res.linear.numChannels = 3;
  HIP_CHECK_ERROR(hipTexObjectCreate(&tex, &res, &td, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipTexObjectCreate(&tex, nullptr, &td, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipTexObjectCreate(&tex, &res, nullptr, nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipCreateTextureObject_Negative_Parameters") {
  Array2D a(hipCreateChannelDesc<float>());
  hipResourceDesc res = array_resource(a.array);
  hipTextureDesc td{};
  hipTextureObject_t tex = nullptr;
  HIP_CHECK_ERROR(hipCreateTextureObject(nullptr, &res, &td, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, nullptr, &td, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &res, nullptr, nullptr), hipErrorInvalidValue);
  hipTextureDesc bad = td;
  int raw = 7;
  std::memcpy(&bad.addressMode[1], &raw, sizeof raw);
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &res, &bad, nullptr), hipErrorInvalidValue);
  bad = td;
  std::memcpy(&bad.filterMode, &raw, sizeof raw);
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &res, &bad, nullptr), hipErrorInvalidValue);
  bad = td;
  std::memcpy(&bad.readMode, &raw, sizeof raw);
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &res, &bad, nullptr), hipErrorInvalidValue);
  hipResourceDesc bad_res = res;
  std::memcpy(&bad_res.resType, &raw, sizeof raw);
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &bad_res, &td, nullptr), hipErrorInvalidValue);
  bad_res = res;
  bad_res.res.array.array = nullptr;
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &bad_res, &td, nullptr), hipErrorInvalidValue);

  // 32-bit integers have no normalized form.
  Array2D ints(hipCreateChannelDesc<int>());
  hipResourceDesc int_res = array_resource(ints.array);
  hipTextureDesc norm{};
  norm.readMode = hipReadModeNormalizedFloat;
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &int_res, &norm, nullptr), hipErrorInvalidValue);

  // Linear memory: a view, an unaligned or unknown pointer, a size of partial elements.
  hip_test::DeviceBuffer<float> buf(256);
  hipResourceDesc lin{};
  lin.resType = hipResourceTypeLinear;
  lin.res.linear.devPtr = buf.get();
  lin.res.linear.desc = hipCreateChannelDesc<float>();
  lin.res.linear.sizeInBytes = buf.bytes();
  hipResourceViewDesc view{};
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &lin, &td, &view), hipErrorInvalidValue);
  lin.res.linear.devPtr = buf.get() + 1;
  lin.res.linear.sizeInBytes = 64;
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &lin, &td, nullptr), hipErrorInvalidValue);
  lin.res.linear.devPtr = buf.get();
  lin.res.linear.sizeInBytes = 6;
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &lin, &td, nullptr), hipErrorInvalidValue);
  lin.res.linear.sizeInBytes = buf.bytes() + 256;  // past the allocation
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &lin, &td, nullptr), hipErrorInvalidValue);
  std::vector<float> host(64);
  lin.res.linear.devPtr = host.data();
  lin.res.linear.sizeInBytes = 64;
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &lin, &td, nullptr), hipErrorInvalidValue);

  // Pitch2D: a pitch not a multiple of texturePitchAlignment, a width wider than the pitch.
  hipResourceDesc p2d{};
  p2d.resType = hipResourceTypePitch2D;
  p2d.res.pitch2D.devPtr = buf.get();
  p2d.res.pitch2D.desc = hipCreateChannelDesc<float>();
  p2d.res.pitch2D.width = 8;
  p2d.res.pitch2D.height = 2;
  p2d.res.pitch2D.pitchInBytes = hip_test::props().texturePitchAlignment + 4;
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &p2d, &td, nullptr), hipErrorInvalidValue);
  p2d.res.pitch2D.pitchInBytes = hip_test::props().texturePitchAlignment;
  p2d.res.pitch2D.width = hip_test::props().texturePitchAlignment;
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &p2d, &td, nullptr), hipErrorInvalidValue);

  // A mipmapped array needs normalized coordinates; a view's level range must exist.
  hipChannelFormatDesc fdesc = hipCreateChannelDesc<float>();
  hipMipmappedArray_t mip = nullptr;
  HIP_CHECK(hipMallocMipmappedArray(&mip, &fdesc, make_hipExtent(4, 4, 0), 2, 0));
  hipResourceDesc mres{};
  mres.resType = hipResourceTypeMipmappedArray;
  mres.res.mipmap.mipmap = mip;
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &mres, &td, nullptr), hipErrorInvalidValue);
  hipTextureDesc ntd{};
  ntd.normalizedCoords = 1;
  hipResourceViewDesc mview{};
  mview.lastMipmapLevel = 2;
  HIP_CHECK_ERROR(hipCreateTextureObject(&tex, &mres, &ntd, &mview), hipErrorInvalidValue);
  HIP_CHECK(hipFreeMipmappedArray(mip));

  // Unknown handles.
  int fake = 0;
  hipTextureObject_t bogus = reinterpret_cast<hipTextureObject_t>(&fake);
  HIP_CHECK_ERROR(hipDestroyTextureObject(bogus), hipErrorInvalidValue);
  hipResourceDesc out{};
  HIP_CHECK_ERROR(hipGetTextureObjectResourceDesc(&out, bogus), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetTextureObjectResourceDesc(nullptr, bogus), hipErrorInvalidValue);
  hipTextureDesc out_td{};
  HIP_CHECK_ERROR(hipGetTextureObjectTextureDesc(&out_td, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipTexObjectDestroy(bogus), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipCreateTextureObject_Positive_OutlivesArray") {
  if (!hip_test::kernels_supported()) return;
  // Freeing the array first leaves the object reading the memory it holds, not freed memory.
  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  hipArray_t a = nullptr;
  HIP_CHECK(hipMallocArray(&a, &desc, 4, 1));
  hipResourceDesc res = array_resource(a);
  hipTextureDesc td{};
  hipTextureObject_t tex = nullptr;
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
  HIP_CHECK(hipFreeArray(a));
  HIP_CHECK(hipDestroyTextureObject(tex));
}

TEST_CASE("Unit_hipDeviceGetTexture1DLinearMaxWidth") {
  size_t width = 0;
  hipChannelFormatDesc desc = hipCreateChannelDesc<float4>();
  HIP_CHECK(hipDeviceGetTexture1DLinearMaxWidth(&width, &desc, hip_test::device()));
  CHECK(width > 0);
  HIP_CHECK_ERROR(hipDeviceGetTexture1DLinearMaxWidth(nullptr, &desc, hip_test::device()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetTexture1DLinearMaxWidth(&width, nullptr, hip_test::device()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetTexture1DLinearMaxWidth(&width, &desc, 999), hipErrorInvalidDevice);
}
