// SPDX-License-Identifier: MIT
// Item 10 of issue 19: graph calls that must keep their real error or refuse a
// self-containing graph, hipMemcpyParam2D with pitch 0, and visible-device lists
// with invalid entries (checked in child processes: enumeration runs once).
#include "hip_test.hpp"

#include <weft/codeobj/bundle.hpp>

#include <cstdio>
#include <string>

extern "C" {
void** __hipRegisterFatBinary(const void* data);
void __hipUnregisterFatBinary(void** modules);
void __hipRegisterFunction(void**, const void*, char*, const char*, unsigned int, uint3*, uint3*,
                           dim3*, dim3*, int*);
}

namespace {

// A fat binary that carries only AMDGPU code objects, registered while alive.
class GpuOnlyProgram {
 public:
  GpuOnlyProgram() {
    std::vector<std::byte> fake(64, std::byte{0});
    bundle_ = weft::codeobj::write_bundle(
        {{"host-x86_64-unknown-linux", {}}, {"hipv4-amdgcn-amd-amdhsa--gfx90a", fake}});
    wrapper_.binary = bundle_.data();
    handle_ = __hipRegisterFatBinary(&wrapper_);
  }
  ~GpuOnlyProgram() { __hipUnregisterFatBinary(handle_); }
  void function(const void* key, const char* name) {
    __hipRegisterFunction(handle_, key, const_cast<char*>(name), name, ~0u, nullptr, nullptr,
                          nullptr, nullptr, nullptr);
  }

 private:
  struct Wrapper {
    uint32_t magic = 0x48495046;
    uint32_t version = 1;
    const void* binary = nullptr;
    const void* reserved = nullptr;
  };
  std::vector<std::byte> bundle_;
  Wrapper wrapper_;
  void** handle_ = nullptr;
};

const char k_gpu_only_kernel = 0;  // a host-side kernel handle, as clang makes one

struct Agents {
  int gpus = -1, cpus = -1;
};

// Runs the helper with `env` (assignments for env(1)) and parses what it printed.
Agents agents_with(const std::string& env) {
  std::string command =
      "env -u HIP_VISIBLE_DEVICES -u CUDA_VISIBLE_DEVICES -u ROCR_VISIBLE_DEVICES " + env +
      " '" WEFT_VISIBLE_DEVICES_HELPER "'";
  Agents a;
  std::FILE* out = popen(command.c_str(), "r");
  if (!out) return a;
  char line[128] = {};
  if (std::fgets(line, sizeof line, out)) std::sscanf(line, "gpus=%d cpus=%d", &a.gpus, &a.cpus);
  pclose(out);
  return a;
}

}  // namespace

TEST_CASE("Item10_graph_kernel_node_keeps_no_binary_error") {
  GpuOnlyProgram program;
  program.function(&k_gpu_only_kernel, "_Z8gpu_onlyv");
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipGraphCreate(&graph, 0));
  hipKernelNodeParams params{};
  params.func = const_cast<char*>(&k_gpu_only_kernel);
// gridDim and blockDim are the single-source built-in objects' macros here.
#pragma push_macro("gridDim")
#pragma push_macro("blockDim")
#undef gridDim
#undef blockDim
  params.gridDim = dim3(1);
  params.blockDim = dim3(1);
#pragma pop_macro("blockDim")
#pragma pop_macro("gridDim")
  void* args[] = {nullptr};
  params.kernelParams = args;
  hipGraphNode_t node = nullptr;
  hipError_t rc = hipGraphAddKernelNode(&node, graph, nullptr, 0, &params);
  HIP_CHECK(hipGraphDestroy(graph));
  // What hipLaunchKernel says for the same kernel.
  hipError_t direct = hipLaunchKernel(&k_gpu_only_kernel, dim3(1), dim3(1), args, 0, nullptr);
  CHECK(direct == hipErrorNoBinaryForGpu);
  CHECK(rc == hipErrorNoBinaryForGpu);
}

TEST_CASE("Item10_child_graph_of_itself") {
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipGraphCreate(&graph, 0));
  hipGraphNode_t node = nullptr;
  HIP_CHECK_ERROR(hipGraphAddChildGraphNode(&node, graph, nullptr, 0, graph), hipErrorInvalidValue);
  size_t count = 7;
  HIP_CHECK(hipGraphGetNodes(graph, nullptr, &count));
  CHECK(count == 0);
  HIP_CHECK(hipGraphDestroy(graph));
}

TEST_CASE("Item10_memcpy_param2d_pitch_zero") {
  hip_test::DeviceBuffer<unsigned char> d(64 * 4);
  std::vector<unsigned char> host(64 * 4, 3);
  hip_Memcpy2D p{};
  p.srcMemoryType = hipMemoryTypeHost;
  p.srcHost = host.data();
  p.srcPitch = 0;
  p.dstMemoryType = hipMemoryTypeDevice;
  p.dstDevice = d.get();
  p.dstPitch = 64;
  p.WidthInBytes = 64;
  p.Height = 4;
  HIP_CHECK_ERROR(hipMemcpyParam2D(&p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyParam2DAsync(&p, nullptr), hipErrorInvalidValue);
  p.srcPitch = 64;
  p.dstPitch = 0;
  HIP_CHECK_ERROR(hipMemcpyParam2D(&p), hipErrorInvalidValue);
  // One row needs no pitch.
  p.Height = 1;
  HIP_CHECK(hipMemcpyParam2D(&p));
  // A device-typed side must be device memory.
  p.dstPitch = 64;
  p.dstDevice = host.data();
  HIP_CHECK_ERROR(hipMemcpyParam2D(&p), hipErrorInvalidValue);
}

TEST_CASE("Item10_invalid_visible_devices_entries") {
  const Agents all = agents_with("");
  REQUIRE(all.gpus >= 0);
  REQUIRE(all.cpus == 1);
  const int first = all.gpus > 0 ? 1 : 0;
  const std::string n = std::to_string(all.gpus);  // the first index past the last GPU
  struct Case {
    std::string env;
    int gpus;
  };
  // HIP (as CUDA): the list is read up to its first invalid entry; the CPU agent
  // is weft's own and stays visible.
  const Case cases[] = {
      {"HIP_VISIBLE_DEVICES=", 0},
      {"HIP_VISIBLE_DEVICES=-1", 0},
      {"HIP_VISIBLE_DEVICES=x", 0},
      {"HIP_VISIBLE_DEVICES=0,x,1", first},
      {"HIP_VISIBLE_DEVICES=0,-1,1", first},
      {"HIP_VISIBLE_DEVICES=" + n, 0},
      {"HIP_VISIBLE_DEVICES=" + n + ",0", 0},
      {"HIP_VISIBLE_DEVICES=0," + n, first},
      {"CUDA_VISIBLE_DEVICES=-1", 0},
  };
  for (const Case& c : cases) {
    INFO(c.env);
    const Agents seen = agents_with(c.env);
    CHECK(seen.gpus == c.gpus);
    CHECK(seen.cpus == 1);
  }
  // ROCR_VISIBLE_DEVICES is ROCr's: it hides AMD GPU agents only, and no entry
  // of it may hide the CPU agent or another driver's GPUs.
  const Agents rocr = agents_with("ROCR_VISIBLE_DEVICES=-1");
  CHECK(rocr.cpus == 1);
  CHECK(rocr.gpus <= all.gpus);
}
