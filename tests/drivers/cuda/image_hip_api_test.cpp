// SPDX-License-Identifier: MIT
// Arrays, array copies, texture and surface objects through the HIP API on the
// NVIDIA agent (CUDA arrays, cuMemcpy3DAsync, cuTexObjectCreate,
// cuSurfObjectCreate). No kernel samples here (GPU kernels come from weftcc):
// contents go in and come back through every copy form. Without an NVIDIA agent
// every case prints SKIPPED.
#include <numeric>
#include <string>
#include <vector>

#include "hip_test.hpp"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // hipMemcpyToArray & co.

namespace {

int nvidia_or_skip() {
  int count = 0;
  if (hipGetDeviceCount(&count) == hipSuccess)
    for (int i = 0; i < count; ++i) {
      hipDeviceProp_t p{};
      if (hipGetDeviceProperties(&p, i) == hipSuccess &&
          std::string(p.gcnArchName).rfind("sm_", 0) == 0) {
        HIP_CHECK(hipSetDevice(i));
        return i;
      }
    }
  hip_test::skip("no NVIDIA agent");
  return -1;
}

std::vector<unsigned> iota(size_t n, unsigned start) {
  std::vector<unsigned> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

}  // namespace

TEST_CASE("Cuda_HipApi_Arrays_Copies") {
  if (nvidia_or_skip() < 0) return;
  hipChannelFormatDesc desc = hipCreateChannelDesc<unsigned int>();
  hipArray_t a = nullptr;
  HIP_CHECK(hipMallocArray(&a, &desc, 8, 4, hipArraySurfaceLoadStore));
  std::vector<unsigned> src = iota(32, 1), back(32, 0);
  HIP_CHECK(hipMemcpy2DToArray(a, 0, 0, src.data(), 32, 32, 4, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy2DFromArray(back.data(), 32, a, 0, 0, 32, 4, hipMemcpyDeviceToHost));
  CHECK(back == src);
  // Row-major ranges across rows (split per row for CUDA arrays).
  std::vector<unsigned> range(10, 0);
  HIP_CHECK(hipMemcpyAtoH(range.data(), a, 5 * 4, 40));
  CHECK(range == iota(10, 6));
  HIP_CHECK(hipMemcpyHtoA(a, 6 * 4, iota(4, 500).data(), 16));
  HIP_CHECK(hipMemcpyFromArray(range.data(), a, 0, 0, 40, hipMemcpyDeviceToHost));
  CHECK(range[6] == 500);
  CHECK(range[9] == 503);
  // Device memory and array-to-array.
  void* dev = nullptr;
  HIP_CHECK(hipMalloc(&dev, 128));
  HIP_CHECK(hipMemcpyAtoD(dev, a, 0, 128));
  hipArray_t b = nullptr;
  HIP_CHECK(hipMallocArray(&b, &desc, 8, 4));
  HIP_CHECK(hipMemcpyDtoA(b, 0, dev, 128));
  HIP_CHECK(hipMemcpy2DArrayToArray(b, 0, 3, a, 0, 0, 32, 1, hipMemcpyDeviceToDevice));
  HIP_CHECK(hipMemcpyAtoH(back.data(), b, 0, 128));
  std::vector<unsigned> in_a(32);
  HIP_CHECK(hipMemcpyAtoH(in_a.data(), a, 0, 128));
  std::vector<unsigned> want = in_a;
  for (size_t i = 0; i < 8; ++i) want[24 + i] = want[i];
  CHECK(back == want);
  // hipMemcpy3DAsync on a stream.
  hipStream_t stream = nullptr;
  HIP_CHECK(hipStreamCreate(&stream));
  std::vector<unsigned> box(4, 0);
  hipMemcpy3DParms p{};
  p.srcArray = a;
  p.srcPos = make_hipPos(1, 2, 0);
  p.dstPtr = make_hipPitchedPtr(box.data(), 8, 2, 2);
  p.extent = make_hipExtent(2, 2, 1);
  p.kind = hipMemcpyDeviceToHost;
  HIP_CHECK(hipMemcpy3DAsync(&p, stream));
  HIP_CHECK(hipStreamSynchronize(stream));
  // The box comes from `a` (rows 2 and 3, columns 1 and 2), not from `b`.
  CHECK((box[0] == in_a[17] && box[1] == in_a[18] && box[2] == in_a[25] && box[3] == in_a[26]));
  // A CUDA array copy cannot be captured.
  HIP_CHECK(hipStreamBeginCapture(stream, hipStreamCaptureModeRelaxed));
  CHECK(hipMemcpy3DAsync(&p, stream) == hipErrorStreamCaptureUnsupported);
  hipGraph_t graph = nullptr;
  (void)hipStreamEndCapture(stream, &graph);
  if (graph) (void)hipGraphDestroy(graph);
  HIP_CHECK(hipStreamDestroy(stream));
  HIP_CHECK(hipFree(dev));
  HIP_CHECK(hipFreeArray(b));
  HIP_CHECK(hipFreeArray(a));
}

TEST_CASE("Cuda_HipApi_TextureAndSurfaceObjects") {
  if (nvidia_or_skip() < 0) return;
  hipChannelFormatDesc desc = hipCreateChannelDesc<float4>();
  hipArray_t a = nullptr;
  HIP_CHECK(hipMallocArray(&a, &desc, 16, 16, hipArraySurfaceLoadStore));
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = a;
  hipTextureDesc td{};
  td.filterMode = hipFilterModeLinear;
  td.normalizedCoords = 1;
  td.addressMode[0] = td.addressMode[1] = hipAddressModeWrap;
  hipTextureObject_t tex = nullptr;
  HIP_CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
  CHECK(tex != nullptr);
  hipTextureDesc got{};
  HIP_CHECK(hipGetTextureObjectTextureDesc(&got, tex));
  CHECK(got.addressMode[0] == hipAddressModeWrap);
  HIP_CHECK(hipDestroyTextureObject(tex));
  hipSurfaceObject_t surf = nullptr;
  HIP_CHECK(hipCreateSurfaceObject(&surf, &res));
  HIP_CHECK(hipDestroySurfaceObject(surf));
  // Mipmaps: levels are CUDA arrays too.
  hipMipmappedArray_t mip = nullptr;
  HIP_CHECK(hipMallocMipmappedArray(&mip, &desc, make_hipExtent(8, 8, 0), 4, 0));
  hipArray_t level = nullptr;
  HIP_CHECK(hipGetMipmappedArrayLevel(&level, mip, 2));
  std::vector<float> in(2 * 2 * 4, 1.5f), out(16, 0);
  HIP_CHECK(hipMemcpy2DToArray(level, 0, 0, in.data(), 32, 32, 2, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy2DFromArray(out.data(), 32, level, 0, 0, 32, 2, hipMemcpyDeviceToHost));
  CHECK(out == in);
  hipResourceDesc mres{};
  mres.resType = hipResourceTypeMipmappedArray;
  mres.res.mipmap.mipmap = mip;
  td.maxMipmapLevelClamp = 3;
  HIP_CHECK(hipCreateTextureObject(&tex, &mres, &td, nullptr));
  HIP_CHECK(hipDestroyTextureObject(tex));
  // Linear memory.
  void* dev = nullptr;
  HIP_CHECK(hipMalloc(&dev, 4096));
  hipResourceDesc lin{};
  lin.resType = hipResourceTypeLinear;
  lin.res.linear.devPtr = dev;
  lin.res.linear.desc = hipCreateChannelDesc<float>();
  lin.res.linear.sizeInBytes = 4096;
  hipTextureDesc ltd{};
  HIP_CHECK(hipCreateTextureObject(&tex, &lin, &ltd, nullptr));
  HIP_CHECK(hipDestroyTextureObject(tex));
  HIP_CHECK(hipFree(dev));
  HIP_CHECK(hipFreeMipmappedArray(mip));
  HIP_CHECK(hipFreeArray(a));
}
