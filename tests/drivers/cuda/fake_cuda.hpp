// SPDX-License-Identifier: MIT
// A fake libcuda for the NVIDIA driver's logic tests: one sm_90 device whose
// calls are recorded instead of run. Install with FakeCuda::install(); the
// previous table comes back when the FakeCuda is destroyed. Not thread-safe
// except where noted (host functions may be called from test threads).
#ifndef WEFT_TESTS_DRIVERS_CUDA_FAKE_CUDA_HPP
#define WEFT_TESTS_DRIVERS_CUDA_FAKE_CUDA_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "api.hpp"

namespace fake_cuda {

struct Launch {
  CUfunction function = nullptr;
  unsigned grid[3] = {};
  unsigned block[3] = {};
  unsigned shared = 0;
  CUstream stream = nullptr;
  std::vector<std::byte> args;  // the CU_LAUNCH_PARAM_BUFFER_POINTER contents
  bool had_extra = false;
  bool had_params = false;   // kernelParams (pointers into the blob)
  bool cooperative = false;  // through cuLaunchCooperativeKernel
};

struct Memset {
  int element_size = 0;
  CUdeviceptr dst = 0;
  size_t pitch = 0;
  unsigned value = 0;
  size_t width = 0;
  size_t height = 0;
};

struct WaitValue {
  CUstream stream = nullptr;
  CUdeviceptr address = 0;
  uint32_t value = 0;
};

struct HostFunc {
  CUhostFn fn = nullptr;
  void* data = nullptr;
};

// One cuMem* virtual memory call (virtual_memory_fake_test.cpp), or one external
// memory or semaphore call (external_fake_test.cpp: handle = the object, detail =
// the fd, offset, type or fence value, address = the buffer or the stream).
struct VmCall {
  std::string name;  // without the "cuMem" prefix: "Create", "Map", …
  CUdeviceptr address = 0;
  size_t bytes = 0;
  CUmemGenericAllocationHandle handle = 0;
  long long detail = 0;  // handle types, access flags, granularity option, the fd
  int device = -1;       // the location id the call named (external imports: flags or fd)
};

// One CUDA array, mipmapped array, texture or surface object call (image_fake_test.cpp).
struct ImageCall {
  std::string
      name;  // "Array3DCreate", "ArrayDestroy", "MipmappedArrayCreate", "TexObjectCreate", …
  uintptr_t handle = 0;
  CUDA_ARRAY3D_DESCRIPTOR array{};
  unsigned levels = 0;
  CUDA_RESOURCE_DESC resource{};
  CUDA_TEXTURE_DESC texture{};
  bool had_view = false;
  CUDA_RESOURCE_VIEW_DESC view{};
};

// Everything the fake records; tests read and tweak it directly.
struct State {
  CUresult init_result = CUDA_SUCCESS;
  int device_count = 1;
  std::map<int, int> attributes;             // CUdevice_attribute → value
  std::vector<size_t> param_sizes{8, 4, 4};  // the kernel's parameters (offsets aligned)
  int stream_least = 0, stream_greatest = -5;
  std::vector<int> stream_priorities;  // of each cuStreamCreateWithPriority
  std::vector<unsigned> stream_flags;
  std::vector<Launch> launches;
  std::vector<Memset> memsets;
  std::vector<CUDA_MEMCPY2D> copies_2d;
  std::vector<size_t> copies_1d;  // byte counts
  std::vector<WaitValue> waits;
  std::vector<CUstream> event_waits;  // streams that got cuStreamWaitEvent
  std::vector<std::pair<CUfunction_attribute, int>> function_sets;
  std::mutex host_mutex;               // guards host_funcs (test threads)
  std::vector<HostFunc> host_funcs;    // queued, not run: tests run them
  std::vector<void*> host_pages;       // from cuMemHostAlloc
  std::vector<VmCall> vm_calls;        // cuMem* virtual memory calls, in order
  std::vector<ImageCall> image_calls;  // arrays, texture and surface objects, in order
  std::vector<std::pair<CUDA_MEMCPY3D, CUstream>> copies_3d;
  // Launches and event records refuse (CUDA_ERROR_INVALID_CONTEXT) while the
  // calling thread's current context is not the device's primary one; each
  // refusal is counted (the driver calls these without making the context
  // current first: CudaDevice::call_in_context).
  bool calls_need_current_context = false;
  int context_refusals = 0;
  int event_records = 0;                // successful cuEventRecord calls
  size_t stack_limit = 1024;            // CU_LIMIT_STACK_SIZE (cuCtxSetLimit/GetLimit)
  size_t stack_limit_max = 512 * 1024;  // larger requests answer CUDA_ERROR_INVALID_VALUE
};

State& state();
// Sets the block and grid dimension limits of an sm_90 device (the fake leaves
// every attribute 0), for code that checks launch shapes against them.
void set_sm90_launch_limits();

// Installs a fresh State and the fake table; restores the real table on destruction.
class FakeCuda {
 public:
  FakeCuda();
  ~FakeCuda();
  FakeCuda(const FakeCuda&) = delete;
  FakeCuda& operator=(const FakeCuda&) = delete;
  const weft::cuda::Api& api() const { return *api_; }
  // Runs the host functions queued so far, in order (what CUDA's thread would do).
  void run_host_funcs();

 private:
  // Leaked: a host-lane thread can drop the last reference to a device (which
  // calls the table) after the test that made it has ended.
  weft::cuda::Api* api_;
};

}  // namespace fake_cuda

#endif  // WEFT_TESTS_DRIVERS_CUDA_FAKE_CUDA_HPP
