// SPDX-License-Identifier: MIT
// Conformance: a module kernel in an executable graph. hipGraphExecKernelNodeSetParams
// on a node that keeps its code-object kernel patches the plan's arguments in place
// (api/graph_exec.cpp): new arguments and launch shape take effect at the next
// replay, queued replays keep what they saw, the graph the plan came from keeps its
// own parameters, and bad parameters fail as they do on the general path.
#include "hip_test.hpp"
#include "test_files.hpp"

#include <vector>

static const std::string kModuleObject = hip_test::helper_file(WEFT_TEST_MODULE_OBJECT);

namespace {

struct Module {
  hipModule_t module = nullptr;
  hipFunction_t write_index = nullptr;
  ~Module() {
    if (module) (void)hipModuleUnload(module);
  }
};

bool load(Module& m) {
  const hipError_t rc = hipModuleLoad(&m.module, kModuleObject.c_str());
  if (rc == hipErrorNoBinaryForGpu || rc == hipErrorInvalidImage) {
    hip_test::skip("the device under test does not load CPU code objects");
    return false;
  }
  HIP_CHECK(rc);
  HIP_CHECK(hipModuleGetFunction(&m.write_index, m.module, "write_index"));
  return true;
}

std::vector<int> host_copy(const hip_test::DeviceBuffer<int>& buffer) {
  std::vector<int> host(buffer.count(), -7);
  HIP_CHECK(hipMemcpy(host.data(), buffer.get(), buffer.bytes(), hipMemcpyDeviceToHost));
  return host;
}

// out[0..count) == base + i, the rest untouched (-1).
void check_indices(const hip_test::DeviceBuffer<int>& out, int count, int base) {
  std::vector<int> host = host_copy(out);
  for (size_t i = 0; i < host.size(); ++i) {
    INFO("index " << i);
    REQUIRE(host[i] == (int(i) < count ? base + int(i) : -1));
  }
}

}  // namespace

TEST_CASE("Unit_hipGraphExecKernelNodeSetParams_Positive_ModuleKernelPatchedInPlace") {
  Module m;
  if (!load(m)) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> first(64), second(64);
  HIP_CHECK(hipMemset(first.get(), 0xff, first.bytes()));
  HIP_CHECK(hipMemset(second.get(), 0xff, second.bytes()));

  // Captured: write_index on 2 blocks of 8 into `first`, base 10.
  int* out = first.get();
  int base = 10;
  void* params[] = {&out, &base};
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipModuleLaunchKernel(m.write_index, 2, 1, 1, 8, 1, 1, 0, s.get(), params, nullptr));
  HIP_CHECK(hipStreamEndCapture(s.get(), &graph));
  out = nullptr;  // the capture owns a copy of the arguments
  base = -100;
  hipGraphExec_t exec = nullptr;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(exec, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  check_indices(first, 16, 10);

  size_t count = 1;
  hipGraphNode_t node = nullptr;
  HIP_CHECK(hipGraphGetNodes(graph, &node, &count));
  REQUIRE(count == 1);
  hipKernelNodeParams p{};
  HIP_CHECK(hipGraphKernelNodeGetParams(node, &p));

  // New arguments and shape: 1 block of 4 into `second`, base 100.
  int* out2 = second.get();
  int base2 = 100;
  void* params2[] = {&out2, &base2};
  p.kernelParams = params2;
  p.gridDim = dim3(1);
  p.blockDim = dim3(4);
  HIP_CHECK(hipGraphExecKernelNodeSetParams(exec, node, &p));
  base2 = -5;  // read at the call, not at the replay
  HIP_CHECK(hipGraphLaunch(exec, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  check_indices(second, 4, 100);
  check_indices(first, 16, 10);

  // The graph keeps its own parameters: its node still says `first`, base 10.
  hipKernelNodeParams original{};
  HIP_CHECK(hipGraphKernelNodeGetParams(node, &original));
  REQUIRE(original.gridDim.x == 2);
  REQUIRE(original.blockDim.x == 8);
  REQUIRE(*static_cast<int**>(original.kernelParams[0]) == first.get());
  REQUIRE(*static_cast<int*>(original.kernelParams[1]) == 10);

  // Replays queued before a patch keep the arguments they were launched with.
  std::vector<int> snapshots(4, -9);
  hip_test::DeviceBuffer<int> scratch(64);
  int* scratch_ptr = scratch.get();
  void* params3[] = {&scratch_ptr, &base2};
  p.kernelParams = params3;
  for (int i = 0; i < 4; ++i) {
    base2 = 1000 * (i + 1);
    HIP_CHECK(hipGraphExecKernelNodeSetParams(exec, node, &p));
    HIP_CHECK(hipGraphLaunch(exec, s.get()));
    HIP_CHECK(
        hipMemcpyAsync(&snapshots[i], scratch.get(), sizeof(int), hipMemcpyDeviceToHost, s.get()));
  }
  HIP_CHECK(hipStreamSynchronize(s.get()));
  for (int i = 0; i < 4; ++i) REQUIRE(snapshots[i] == 1000 * (i + 1));

  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
}

TEST_CASE("Unit_hipGraphExecKernelNodeSetParams_Negative_ModuleKernelBadParameters") {
  Module m;
  if (!load(m)) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> out(64);
  HIP_CHECK(hipMemset(out.get(), 0xff, out.bytes()));
  int* ptr = out.get();
  int base = 7;
  void* params[] = {&ptr, &base};
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipModuleLaunchKernel(m.write_index, 1, 1, 1, 8, 1, 1, 0, s.get(), params, nullptr));
  HIP_CHECK(hipStreamEndCapture(s.get(), &graph));
  hipGraphExec_t exec = nullptr;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  size_t count = 1;
  hipGraphNode_t node = nullptr;
  HIP_CHECK(hipGraphGetNodes(graph, &node, &count));
  hipKernelNodeParams p{};
  HIP_CHECK(hipGraphKernelNodeGetParams(node, &p));
  int other = 50;
  void* good[] = {&ptr, &other};

  hipKernelNodeParams bad = p;
  bad.kernelParams = good;
  bad.blockDim = dim3(0);
  HIP_CHECK_ERROR(hipGraphExecKernelNodeSetParams(exec, node, &bad), hipErrorInvalidConfiguration);
  bad = p;
  bad.kernelParams = good;
  bad.gridDim = dim3(0);
  HIP_CHECK_ERROR(hipGraphExecKernelNodeSetParams(exec, node, &bad), hipErrorInvalidValue);
  bad = p;
  bad.kernelParams = nullptr;  // the kernel takes two arguments
  HIP_CHECK_ERROR(hipGraphExecKernelNodeSetParams(exec, node, &bad), hipErrorInvalidValue);
  void* holey[] = {&ptr, nullptr};
  bad.kernelParams = holey;
  HIP_CHECK_ERROR(hipGraphExecKernelNodeSetParams(exec, node, &bad), hipErrorInvalidValue);

  // Nothing of the failed calls reached the plan.
  HIP_CHECK(hipGraphLaunch(exec, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  check_indices(out, 8, 7);

  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
}
