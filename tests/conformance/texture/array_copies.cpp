// SPDX-License-Identifier: MIT
// Conformance: every copy with an array side, checked against host-computed
// contents: hipMemcpy2DToArray(Async), hipMemcpy2DFromArray(Async),
// hipMemcpyToArray/FromArray, hipMemcpy2DArrayToArray, hipMemcpyHtoA/AtoH(Async),
// hipMemcpyDtoA/AtoD/AtoA, hipMemcpy3D(Async) and hipMemcpyParam2D with arrays, a
// captured array copy; out-of-range copies fail with nothing written.
#include "hip_test.hpp"

// The calls under test are deprecated in HIP.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include <numeric>
#include <string>
#include <vector>

namespace {

// A W x H (x D) array of 4-byte unsigned texels.
struct U32Array {
  hipArray_t array = nullptr;
  size_t w, h, d;
  U32Array(size_t width, size_t height, size_t depth = 0) : w(width), h(height), d(depth) {
    hipChannelFormatDesc desc = hipCreateChannelDesc<unsigned int>();
    HIP_CHECK(hipMalloc3DArray(&array, &desc, make_hipExtent(w, h, d), 0));
  }
  ~U32Array() { (void)hipFreeArray(array); }
  size_t count() const { return w * (h ? h : 1) * (d ? d : 1); }
  // Whole contents, row-major.
  std::vector<unsigned> read() const {
    std::vector<unsigned> out(count());
    HIP_CHECK(hipMemcpyAtoH(out.data(), array, 0, out.size() * 4));
    return out;
  }
  void write(const std::vector<unsigned>& v) {
    HIP_CHECK(hipMemcpyHtoA(array, 0, v.data(), v.size() * 4));
  }
};

std::vector<unsigned> iota(size_t n, unsigned start) {
  std::vector<unsigned> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

// Every agent but NVIDIA's keeps arrays in linear memory (docs/textures.md); a CUDA array's
// copy is no Op, so it is neither captured nor a graph memcpy node. Skips elsewhere.
bool arrays_in_linear_memory() {
  if (std::string(hip_test::props().gcnArchName).rfind("sm_", 0) != 0) return true;
  hip_test::skip("CUDA arrays: their copies are not graph nodes (docs/textures.md, \"Copies\")");
  return false;
}

}  // namespace

TEST_CASE("Unit_hipMemcpy2DToArray_Positive_Region") {
  U32Array a(6, 4);
  a.write(std::vector<unsigned>(24, 0xeeeeeeeeu));
  // A 3 x 2 block from a source with pitch 5 elements into (x = 2, y = 1).
  std::vector<unsigned> src = iota(10, 100);
  hip_test::Stream stream;
  for (bool async : {false, true}) {
    INFO("async " << async);
    if (async)
      HIP_CHECK(hipMemcpy2DToArrayAsync(a.array, 2 * 4, 1, src.data(), 5 * 4, 3 * 4, 2,
                                        hipMemcpyHostToDevice, stream.get()));
    else
      HIP_CHECK(hipMemcpy2DToArray(a.array, 2 * 4, 1, src.data(), 5 * 4, 3 * 4, 2,
                                   hipMemcpyHostToDevice));
    HIP_CHECK(hipStreamSynchronize(stream.get()));
    std::vector<unsigned> got = a.read();
    for (size_t y = 0; y < 4; ++y)
      for (size_t x = 0; x < 6; ++x) {
        bool inside = x >= 2 && x < 5 && y >= 1 && y < 3;
        unsigned want = inside ? src[(y - 1) * 5 + (x - 2)] : 0xeeeeeeeeu;
        INFO("x " << x << " y " << y);
        CHECK(got[y * 6 + x] == want);
      }
  }
}

TEST_CASE("Unit_hipMemcpy2DFromArray_Positive_Region") {
  U32Array a(5, 3);
  a.write(iota(15, 0));
  std::vector<unsigned> dst(8, 7);
  hip_test::Stream stream;
  HIP_CHECK(
      hipMemcpy2DFromArray(dst.data(), 4 * 4, a.array, 1 * 4, 1, 2 * 4, 2, hipMemcpyDeviceToHost));
  CHECK(dst == std::vector<unsigned>{6, 7, 7, 7, 11, 12, 7, 7});
  std::vector<unsigned> dst2(3, 0);
  HIP_CHECK(hipMemcpy2DFromArrayAsync(dst2.data(), 12, a.array, 2 * 4, 2, 12, 1, hipMemcpyDefault,
                                      stream.get()));
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  CHECK(dst2 == std::vector<unsigned>{12, 13, 14});
  // Device memory as the destination.
  hip_test::DeviceBuffer<unsigned> dev(15);
  HIP_CHECK(
      hipMemcpy2DFromArray(dev.get(), 5 * 4, a.array, 0, 0, 5 * 4, 3, hipMemcpyDeviceToDevice));
  std::vector<unsigned> back(15);
  HIP_CHECK(hipMemcpy(back.data(), dev.get(), 60, hipMemcpyDeviceToHost));
  CHECK(back == iota(15, 0));
}

TEST_CASE("Unit_hipMemcpyToArray_Positive_RowMajorRanges") {
  U32Array a(4, 3);
  a.write(std::vector<unsigned>(12, 0));
  std::vector<unsigned> src = iota(6, 50);
  // Six elements from (x = 3, y = 0): they run on across rows.
  HIP_CHECK(hipMemcpyToArray(a.array, 3 * 4, 0, src.data(), 6 * 4, hipMemcpyHostToDevice));
  std::vector<unsigned> want(12, 0);
  for (size_t i = 0; i < 6; ++i) want[3 + i] = src[i];
  CHECK(a.read() == want);
  std::vector<unsigned> out(5, 0);
  HIP_CHECK(hipMemcpyFromArray(out.data(), a.array, 0, 1, 5 * 4, hipMemcpyDeviceToHost));
  CHECK(out == std::vector<unsigned>(want.begin() + 4, want.begin() + 9));
  HIP_CHECK(hipMemcpyFromArray_spt(out.data(), a.array, 2 * 4, 0, 4, hipMemcpyDeviceToHost));
  CHECK(out[0] == want[2]);
}

TEST_CASE("Unit_hipMemcpyAtoX_Positive") {
  U32Array a(8, 2), b(4, 4);
  a.write(iota(16, 1000));
  b.write(std::vector<unsigned>(16, 0));
  hip_test::DeviceBuffer<unsigned> dev(16);
  HIP_CHECK(hipMemcpyAtoD(dev.get(), a.array, 4 * 4, 8 * 4));
  std::vector<unsigned> host(8);
  HIP_CHECK(hipMemcpy(host.data(), dev.get(), 32, hipMemcpyDeviceToHost));
  CHECK(host == iota(8, 1004));
  HIP_CHECK(hipMemcpyDtoA(b.array, 2 * 4, dev.get(), 8 * 4));
  std::vector<unsigned> want(16, 0);
  for (size_t i = 0; i < 8; ++i) want[2 + i] = 1004 + unsigned(i);
  CHECK(b.read() == want);
  HIP_CHECK(hipMemcpyAtoA(b.array, 12 * 4, a.array, 0, 4 * 4));
  for (size_t i = 0; i < 4; ++i) want[12 + i] = 1000 + unsigned(i);
  CHECK(b.read() == want);
  hip_test::Stream stream;
  std::vector<unsigned> src = iota(3, 9), out(3);
  HIP_CHECK(hipMemcpyHtoAAsync(a.array, 13 * 4, src.data(), 12, stream.get()));
  HIP_CHECK(hipMemcpyAtoHAsync(out.data(), a.array, 13 * 4, 12, stream.get()));
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  CHECK(out == src);
}

TEST_CASE("Unit_hipMemcpy2DArrayToArray_Positive") {
  U32Array a(4, 4), b(5, 3);
  a.write(iota(16, 0));
  b.write(std::vector<unsigned>(15, 0));
  HIP_CHECK(hipMemcpy2DArrayToArray(b.array, 1 * 4, 1, a.array, 2 * 4, 1, 2 * 4, 2,
                                    hipMemcpyDeviceToDevice));
  std::vector<unsigned> want(15, 0);
  want[1 * 5 + 1] = 6;
  want[1 * 5 + 2] = 7;
  want[2 * 5 + 1] = 10;
  want[2 * 5 + 2] = 11;
  CHECK(b.read() == want);
}

TEST_CASE("Unit_hipMemcpy3D_Positive_Arrays") {
  U32Array a(4, 3, 2);
  std::vector<unsigned> host = iota(4 * 3 * 2, 0);
  hipMemcpy3DParms p{};
  p.srcPtr = make_hipPitchedPtr(host.data(), 16, 4, 3);
  p.dstArray = a.array;
  p.extent = make_hipExtent(4, 3, 2);
  p.kind = hipMemcpyHostToDevice;
  HIP_CHECK(hipMemcpy3D(&p));
  CHECK(a.read() == host);
  // A 2 x 2 x 2 box from (1, 1, 0) of the array into a pitched buffer of 3-element rows, 2 rows a slice.
  std::vector<unsigned> out(3 * 2 * 2, 0);
  hipMemcpy3DParms q{};
  q.srcArray = a.array;
  q.srcPos = make_hipPos(1, 1, 0);
  q.dstPtr = make_hipPitchedPtr(out.data(), 12, 3, 2);
  q.extent = make_hipExtent(2, 2, 2);
  q.kind = hipMemcpyDeviceToHost;
  hip_test::Stream stream;
  HIP_CHECK(hipMemcpy3DAsync(&q, stream.get()));
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  auto at = [](size_t x, size_t y, size_t z) { return unsigned(z * 12 + y * 4 + x); };
  std::vector<unsigned> want = {at(1, 1, 0), at(2, 1, 0), 0, at(1, 2, 0), at(2, 2, 0), 0,
                                at(1, 1, 1), at(2, 1, 1), 0, at(1, 2, 1), at(2, 2, 1), 0};
  CHECK(out == want);
  // Array to array.
  U32Array b(4, 3, 2);
  b.write(std::vector<unsigned>(24, 0));
  hipMemcpy3DParms r{};
  r.srcArray = a.array;
  r.dstArray = b.array;
  r.srcPos = make_hipPos(0, 0, 1);
  r.extent = make_hipExtent(4, 3, 1);
  r.kind = hipMemcpyDeviceToDevice;
  HIP_CHECK(hipMemcpy3D(&r));
  std::vector<unsigned> got = b.read();
  CHECK(std::vector<unsigned>(got.begin(), got.begin() + 12) == iota(12, 12));
  // Out of range: nothing written.
  r.extent = make_hipExtent(4, 3, 2);
  HIP_CHECK_ERROR(hipMemcpy3D(&r), hipErrorInvalidValue);
  CHECK(b.read() == got);
}

TEST_CASE("Unit_hipMemcpyParam2D_Positive_Arrays") {
  U32Array a(4, 2);
  std::vector<unsigned> src = iota(8, 40), dst(8, 0);
  hip_Memcpy2D c{};
  c.srcMemoryType = hipMemoryTypeHost;
  c.srcHost = src.data();
  c.srcPitch = 16;
  c.dstMemoryType = hipMemoryTypeArray;
  c.dstArray = a.array;
  c.WidthInBytes = 16;
  c.Height = 2;
  HIP_CHECK(hipMemcpyParam2D(&c));
  CHECK(a.read() == src);
  hip_Memcpy2D back{};
  back.srcMemoryType = hipMemoryTypeArray;
  back.srcArray = a.array;
  back.srcXInBytes = 8;
  back.dstMemoryType = hipMemoryTypeHost;
  back.dstHost = dst.data();
  back.dstPitch = 8;
  back.WidthInBytes = 8;
  back.Height = 2;
  HIP_CHECK(hipMemcpyParam2DAsync(&back, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  CHECK((dst[0] == 42 && dst[1] == 43 && dst[2] == 46 && dst[3] == 47));
  back.srcArray = nullptr;
  HIP_CHECK_ERROR(hipMemcpyParam2D(&back), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemcpy2DToArrayAsync_Positive_Captured") {
  // Arrays in linear memory (the CPU agent) copy with plain copy nodes; a CUDA
  // array's copy cannot be captured (cuda_hip_api checks that).
  if (!arrays_in_linear_memory()) return;
  if (!hip_test::kernels_supported()) return;
  U32Array a(4, 2);
  a.write(std::vector<unsigned>(8, 0));
  std::vector<unsigned> src = iota(8, 7);
  hip_test::Stream stream;
  HIP_CHECK(hipStreamBeginCapture(stream.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipMemcpy2DToArrayAsync(a.array, 0, 0, src.data(), 16, 16, 2, hipMemcpyHostToDevice,
                                    stream.get()));
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipStreamEndCapture(stream.get(), &graph));
  CHECK(a.read() == std::vector<unsigned>(8, 0));  // captured, not run
  hipGraphExec_t exec = nullptr;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(exec, stream.get()));
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  CHECK(a.read() == src);
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
}

TEST_CASE("Unit_hipMemcpyArray_Negative_Parameters") {
  U32Array a(4, 2);
  a.write(iota(8, 1));
  const std::vector<unsigned> before = a.read();
  std::vector<unsigned> host(16, 0);
  // Past the row, past the last row, past the array's bytes.
  HIP_CHECK_ERROR(hipMemcpy2DToArray(a.array, 4, 0, host.data(), 16, 16, 1, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy2DToArray(a.array, 0, 1, host.data(), 16, 16, 2, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyHtoA(a.array, 4, host.data(), 32), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyToArray(a.array, 0, 2, host.data(), 4, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyAtoH(host.data(), a.array, 0, 33), hipErrorInvalidValue);
  CHECK(a.read() == before);
  // Null and unknown arrays, null pointers, a short source pitch, a bad kind.
  HIP_CHECK_ERROR(hipMemcpy2DToArray(nullptr, 0, 0, host.data(), 16, 16, 1, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  int fake = 0;
  HIP_CHECK_ERROR(hipMemcpyAtoH(host.data(), reinterpret_cast<hipArray_t>(&fake), 0, 4),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy2DToArray(a.array, 0, 0, nullptr, 16, 16, 1, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy2DToArray(a.array, 0, 0, host.data(), 8, 16, 2, hipMemcpyHostToDevice),
                  hipErrorInvalidPitchValue);
  HIP_CHECK_ERROR(
      hipMemcpy2DToArray(a.array, 0, 0, host.data(), 16, 16, 1, static_cast<hipMemcpyKind>(17)),
      hipErrorInvalidMemcpyDirection);
  // A device-side source that is no device memory.
  HIP_CHECK_ERROR(hipMemcpyDtoA(a.array, 0, host.data(), 16), hipErrorInvalidValue);
  CHECK(a.read() == before);
  // Zero-sized copies succeed and write nothing.
  HIP_CHECK(hipMemcpy2DToArray(a.array, 0, 0, host.data(), 16, 0, 1, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpyHtoA(a.array, 0, host.data(), 0));
  CHECK(a.read() == before);
}

TEST_CASE("Unit_hipGraphAddMemcpyNode_Positive_Array") {
  // Graph memcpy nodes take arrays kept in linear memory (the CPU agent).
  if (!arrays_in_linear_memory()) return;
  if (!hip_test::kernels_supported()) return;
  U32Array a(3, 2);
  a.write(std::vector<unsigned>(6, 0));
  std::vector<unsigned> src = iota(6, 20);
  hipMemcpy3DParms p{};
  p.srcPtr = make_hipPitchedPtr(src.data(), 12, 3, 2);
  p.dstArray = a.array;
  p.extent = make_hipExtent(3, 2, 1);
  p.kind = hipMemcpyHostToDevice;
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipGraphCreate(&graph, 0));
  hipGraphNode_t node = nullptr;
  HIP_CHECK(hipGraphAddMemcpyNode(&node, graph, nullptr, 0, &p));
  hipGraphExec_t exec = nullptr;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(exec, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  CHECK(a.read() == src);
  // Out of the array's bounds: refused when the node is added.
  p.extent = make_hipExtent(4, 2, 1);
  hipGraphNode_t bad = nullptr;
  HIP_CHECK_ERROR(hipGraphAddMemcpyNode(&bad, graph, nullptr, 0, &p), hipErrorInvalidValue);
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
}
