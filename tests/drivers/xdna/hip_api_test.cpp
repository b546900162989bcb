// SPDX-License-Identifier: MIT
// The HIP API on an AMD NPU agent, with the amdxdna double underneath: this
// executable exports weft_xdna_os_for_testing, so the copy of the NPU driver
// inside libamdhip64 finds the double (drivers/xdna/os.hpp) when hipInit
// enumerates. Everything above the ioctls is the real runtime: device table,
// streams, events, modules, graphs.
#include <hip/hip_runtime.h>
#include <weft/codeobj/bundle.hpp>

#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "fake_xdna.hpp"
#include "hip_test.hpp"
#include "npu_objects.hpp"

extern "C" __attribute__((visibility("default"))) const weft::xdna::OsTable*
    weft_xdna_os_for_testing() {
  static const bool configured =
      (fake_xdna::FakeXdna::get().configure({fake_xdna::NodeConfig{}}), true);
  (void)configured;
  return &fake_xdna::FakeXdna::get().table();
}

namespace {

constexpr uint32_t kN = 256, kK = 41;

int npu_device() {
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  for (int i = 0; i < count; ++i) {
    hipDeviceProp_t p;
    HIP_CHECK(hipGetDeviceProperties(&p, i));
    if (std::string(p.gcnArchName) == "aie2") return i;
  }
  FAIL("no NPU agent among " << count << " devices");
  return -1;
}

struct Buffers {
  uint32_t* in = nullptr;
  uint32_t* out = nullptr;
  std::vector<uint32_t> host = std::vector<uint32_t>(kN);
  Buffers() {
    HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&in), kN * 4));
    HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&out), kN * 4));
    for (uint32_t i = 0; i < kN; ++i) host[i] = i * i;
    HIP_CHECK(hipMemcpy(in, host.data(), kN * 4, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(out, 0, kN * 4));
  }
  ~Buffers() {
    (void)hipFree(in);
    (void)hipFree(out);
  }
  void check(uint32_t times) {
    std::vector<uint32_t> result(kN);
    HIP_CHECK(hipMemcpy(result.data(), out, kN * 4, hipMemcpyDeviceToHost));
    for (uint32_t i = 0; i < kN; ++i) REQUIRE(result[i] == i * i + kK * times);
  }
};

}  // namespace

TEST_CASE("Xdna_Hip_NpuIsCountedAndDescribed") {
  int npu = npu_device();
  CHECK(npu == 0);  // accelerators come before the CPU agent
  hipDeviceProp_t p;
  HIP_CHECK(hipGetDeviceProperties(&p, npu));
  CHECK(std::string(p.name) == "AMD Ryzen AI NPU1");
  CHECK(p.multiProcessorCount == 4);
  CHECK(p.totalGlobalMem > 0);
  int columns = 0;
  HIP_CHECK(hipDeviceGetAttribute(&columns, hipDeviceAttributeMultiprocessorCount, npu));
  CHECK(columns == 4);
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  CHECK(count >= 2);  // the NPU and the CPU agent
}

TEST_CASE("Xdna_Hip_MallocCopiesAndFills") {
  HIP_CHECK(hipSetDevice(npu_device()));
  uint8_t* d = nullptr;
  HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&d), 4096));
  std::vector<uint8_t> host(4096), back(4096);
  for (size_t i = 0; i < host.size(); ++i) host[i] = uint8_t(i * 13);
  HIP_CHECK(hipMemcpy(d, host.data(), host.size(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(d + 100, 0xab, 50));
  HIP_CHECK(hipMemcpy(back.data(), d, back.size(), hipMemcpyDeviceToHost));
  for (size_t i = 0; i < host.size(); ++i)
    REQUIRE(back[i] == ((i >= 100 && i < 150) ? 0xab : host[i]));
  size_t free_bytes = 0, total = 0;
  HIP_CHECK(hipMemGetInfo(&free_bytes, &total));
  CHECK(free_bytes <= total);
  HIP_CHECK(hipFree(d));
}

TEST_CASE("Xdna_Hip_ModuleLaunchRunsTheKernel") {
  HIP_CHECK(hipSetDevice(npu_device()));
  auto image = xdna_test::test_object(kN, kK);
  hipModule_t module = nullptr;
  HIP_CHECK(hipModuleLoadData(&module, image.data()));
  hipFunction_t add = nullptr;
  HIP_CHECK(hipModuleGetFunction(&add, module, "add_k"));
  Buffers b;
  hipStream_t stream = nullptr;
  HIP_CHECK(hipStreamCreate(&stream));
  void* params[] = {&b.in, &b.out};
  HIP_CHECK(hipModuleLaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr));
  HIP_CHECK(hipStreamSynchronize(stream));
  b.check(1);
  // `extra`: the same arguments pre-packed; then the output is the input.
  struct {
    void* in;
    void* out;
  } packed{b.out, b.out};
  size_t size = sizeof(packed);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   HIP_LAUNCH_PARAM_END};
  HIP_CHECK(hipModuleLaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, extra));
  HIP_CHECK(hipStreamSynchronize(stream));
  b.check(2);
  // One launch is the whole partition: other shapes are refused.
  HIP_CHECK_ERROR(hipModuleLaunchKernel(add, 2, 1, 1, 1, 1, 1, 0, stream, params, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipModuleLaunchKernel(add, 1, 1, 1, 64, 1, 1, 0, stream, params, nullptr),
                  hipErrorInvalidConfiguration);
  // A buffer that is not NPU memory is refused at the launch.
  std::vector<uint32_t> host(kN);
  void* host_ptr = host.data();
  void* bad[] = {&host_ptr, &b.out};
  HIP_CHECK_ERROR(hipModuleLaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, stream, bad, nullptr),
                  hipErrorInvalidValue);
  unsigned count = 0;
  HIP_CHECK(hipModuleGetFunctionCount(&count, module));
  CHECK(count == 3u);
  HIP_CHECK(hipStreamDestroy(stream));
  HIP_CHECK(hipModuleUnload(module));
}

TEST_CASE("Xdna_Hip_ModuleFromFileAndFromABundleEntry") {
  HIP_CHECK(hipSetDevice(npu_device()));
  auto image = xdna_test::test_object(kN, kK);
  char path[] = "/tmp/weft_xdna_XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, image.data(), image.size()) == ssize_t(image.size()));
  close(fd);
  hipModule_t from_file = nullptr;
  HIP_CHECK(hipModuleLoad(&from_file, path));
  unlink(path);
  hipFunction_t add = nullptr;
  HIP_CHECK(hipModuleGetFunction(&add, from_file, "add_k"));
  Buffers b;
  void* params[] = {&b.in, &b.out};
  HIP_CHECK(hipModuleLaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  b.check(1);
  HIP_CHECK(hipModuleUnload(from_file));
  // A bundle whose NPU entry sits beside an empty host entry and another target's.
  auto other = xdna_test::test_object(kN, 1, "aie2p");
  auto bundle = weft::codeobj::write_bundle({{"host-x86_64-unknown-linux-gnu", {}},
                                             {"hipv4-aie2p-amd-xdna--aie2p", other},
                                             {"hipv4-aie2-amd-xdna--aie2", image}});
  hipModule_t from_bundle = nullptr;
  HIP_CHECK(hipModuleLoadData(&from_bundle, bundle.data()));
  HIP_CHECK(hipModuleGetFunction(&add, from_bundle, "add_k"));
  HIP_CHECK(hipMemcpy(b.in, b.out, kN * 4, hipMemcpyDeviceToDevice));
  HIP_CHECK(hipModuleLaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  for (auto& v : b.host) v += kK;  // the input was the first result
  std::vector<uint32_t> result(kN);
  HIP_CHECK(hipMemcpy(result.data(), b.out, kN * 4, hipMemcpyDeviceToHost));
  for (uint32_t i = 0; i < kN; ++i) REQUIRE(result[i] == i * i + 2 * kK);
  HIP_CHECK(hipModuleUnload(from_bundle));
}

TEST_CASE("Xdna_Hip_MalformedNpuObjectIsInvalidImage") {
  HIP_CHECK(hipSetDevice(npu_device()));
  auto image = xdna_test::test_object(kN, kK);
  image[image.size() - 300] = std::byte{0xff};  // inside the xclbin's partition data
  auto broken = image;
  uint64_t huge = 1ull << 40;
  std::memcpy(broken.data() + 48, &huge, 8);  // xclbin size past the object
  hipModule_t module = nullptr;
  HIP_CHECK_ERROR(hipModuleLoadData(&module, broken.data()), hipErrorInvalidImage);
  auto truncated = image;
  uint64_t total = 70;
  std::memcpy(truncated.data() + 16, &total, 8);
  HIP_CHECK_ERROR(hipModuleLoadData(&module, truncated.data()), hipErrorInvalidImage);
}

TEST_CASE("Xdna_Hip_EventsOrderStreamsAndTime") {
  HIP_CHECK(hipSetDevice(npu_device()));
  auto image = xdna_test::test_object(kN, kK);
  hipModule_t module = nullptr;
  HIP_CHECK(hipModuleLoadData(&module, image.data()));
  hipFunction_t add = nullptr;
  HIP_CHECK(hipModuleGetFunction(&add, module, "add_k"));
  Buffers b;
  hipStream_t s1 = nullptr, s2 = nullptr;
  HIP_CHECK(hipStreamCreateWithFlags(&s1, hipStreamNonBlocking));
  HIP_CHECK(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
  hipEvent_t start = nullptr, stop = nullptr;
  HIP_CHECK(hipEventCreate(&start));
  HIP_CHECK(hipEventCreate(&stop));
  void* params[] = {&b.in, &b.out};
  void* back[] = {&b.out, &b.in};
  HIP_CHECK(hipEventRecord(start, s1));
  HIP_CHECK(hipModuleLaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, s1, params, nullptr));  // out = in + k
  HIP_CHECK(hipEventRecord(stop, s1));
  HIP_CHECK(hipStreamWaitEvent(s2, stop, 0));
  HIP_CHECK(hipModuleLaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, s2, back, nullptr));  // in = out + k
  HIP_CHECK(hipStreamSynchronize(s2));
  HIP_CHECK(hipEventSynchronize(stop));
  float ms = -1;
  HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
  CHECK(ms >= 0);
  std::vector<uint32_t> result(kN);
  HIP_CHECK(hipMemcpy(result.data(), b.in, kN * 4, hipMemcpyDeviceToHost));
  for (uint32_t i = 0; i < kN; ++i) REQUIRE(result[i] == i * i + 2 * kK);
  HIP_CHECK(hipEventDestroy(start));
  HIP_CHECK(hipEventDestroy(stop));
  HIP_CHECK(hipStreamDestroy(s1));
  HIP_CHECK(hipStreamDestroy(s2));
  HIP_CHECK(hipModuleUnload(module));
}

TEST_CASE("Xdna_Hip_GraphKernelNodesRunOnAnNpuStream") {
  HIP_CHECK(hipSetDevice(npu_device()));
  auto image = xdna_test::test_object(kN, kK);
  hipModule_t module = nullptr;
  HIP_CHECK(hipModuleLoadData(&module, image.data()));
  hipFunction_t add = nullptr;
  HIP_CHECK(hipModuleGetFunction(&add, module, "add_k"));
  Buffers b;
  hipStream_t stream = nullptr;
  HIP_CHECK(hipStreamCreate(&stream));
  // Explicit: copy out → in, then a kernel node in = ... out = in + k.
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipGraphCreate(&graph, 0));
  void* params[] = {&b.in, &b.out};
  hipKernelNodeParams node{};
  node.func = reinterpret_cast<void*>(add);
  node.gridDim = dim3(1, 1, 1);
  node.blockDim = dim3(1, 1, 1);
  node.kernelParams = params;
  hipGraphNode_t kernel = nullptr, copy = nullptr;
  HIP_CHECK(hipGraphAddKernelNode(&kernel, graph, nullptr, 0, &node));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&copy, graph, &kernel, 1, b.in, b.out, kN * 4,
                                    hipMemcpyDeviceToDevice));
  hipGraphExec_t exec = nullptr;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  for (int replay = 0; replay < 3; ++replay) HIP_CHECK(hipGraphLaunch(exec, stream));
  HIP_CHECK(hipStreamSynchronize(stream));
  b.check(3);  // each replay adds k to the previous result
  // Captured: the same launch recorded from the stream.
  hipGraph_t captured = nullptr;
  HIP_CHECK(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  HIP_CHECK(hipModuleLaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr));
  HIP_CHECK(hipStreamEndCapture(stream, &captured));
  hipGraphExec_t captured_exec = nullptr;
  HIP_CHECK(hipGraphInstantiate(&captured_exec, captured, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(captured_exec, stream));
  HIP_CHECK(hipStreamSynchronize(stream));
  b.check(4);
  HIP_CHECK(hipGraphExecDestroy(captured_exec));
  HIP_CHECK(hipGraphDestroy(captured));
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
  HIP_CHECK(hipStreamDestroy(stream));
  HIP_CHECK(hipModuleUnload(module));
}

// Last: a fault poisons the device until hipDeviceReset.
TEST_CASE("Xdna_Hip_KernelFaultIsStickyUntilReset") {
  int npu = npu_device();
  HIP_CHECK(hipSetDevice(npu));
  auto image = xdna_test::test_object(kN, kK);
  hipModule_t module = nullptr;
  HIP_CHECK(hipModuleLoadData(&module, image.data()));
  hipFunction_t fault = nullptr;
  HIP_CHECK(hipModuleGetFunction(&fault, module, "fault"));
  void* d = nullptr;
  HIP_CHECK(hipMalloc(&d, 64));
  void* params[] = {&d};
  HIP_CHECK(hipModuleLaunchKernel(fault, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  HIP_CHECK_ERROR(hipDeviceSynchronize(), hipErrorLaunchFailure);
  HIP_CHECK_ERROR(hipDeviceSynchronize(), hipErrorLaunchFailure);
  HIP_CHECK(hipDeviceReset());
  HIP_CHECK(hipDeviceSynchronize());
  CHECK(fake_xdna::FakeXdna::get().violations().empty());
}
