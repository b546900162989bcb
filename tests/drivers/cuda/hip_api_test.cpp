// SPDX-License-Identifier: MIT
// The HIP API on the NVIDIA agent, for what the conformance suite cannot reach
// with host-compiled kernels: properties as HIP reports them, copies of every
// kind, events between a GPU and the CPU agent, peer calls, and IPC handles
// shared with a child process (cuda_ipc_child). Without an NVIDIA agent every
// case prints SKIPPED and the binary exits 77.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <string>

#include "hip_test.hpp"

extern char** environ;

namespace {

struct Agents {
  int gpu = -1;  // first agent whose ISA is sm_*
  int cpu = -1;  // the CPU agent (x86_64 / aarch64)
};

const Agents& agents() {
  static Agents a = [] {
    Agents out;
    int count = 0;
    if (hipGetDeviceCount(&count) != hipSuccess) return out;
    for (int i = 0; i < count; ++i) {
      hipDeviceProp_t p{};
      if (hipGetDeviceProperties(&p, i) != hipSuccess) continue;
      std::string arch = p.gcnArchName;
      if (arch.rfind("sm_", 0) == 0 && out.gpu < 0) out.gpu = i;
      if ((arch == "x86_64" || arch == "aarch64") && out.cpu < 0) out.cpu = i;
    }
    return out;
  }();
  return a;
}

int gpu_or_skip() {
  int gpu = agents().gpu;
  if (gpu < 0) hip_test::skip("no NVIDIA agent (hip-smi / AMD_LOG_LEVEL=3 says why)");
  else HIP_CHECK(hipSetDevice(gpu));
  return gpu;
}

__global__ void host_compiled_kernel(int* p) { *p = 1; }

std::string hex(const void* data, size_t n) {
  std::string out;
  char buf[3];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof(buf), "%02x", static_cast<const unsigned char*>(data)[i]);
    out += buf;
  }
  return out;
}

}  // namespace

TEST_CASE("Cuda_Hip_Properties") {
  int gpu = gpu_or_skip();
  if (gpu < 0) return;
  hipDeviceProp_t p{};
  HIP_CHECK(hipGetDeviceProperties(&p, gpu));
  CHECK(p.warpSize == 32);
  CHECK(std::string(p.gcnArchName).rfind("sm_", 0) == 0);
  int value = 0;
  HIP_CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeWarpSize, gpu));
  CHECK(value == 32);
  HIP_CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeComputeCapabilityMajor, gpu));
  CHECK(value == p.major);
  HIP_CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeCanUseStreamWaitValue, gpu));
  char bus[32] = {};
  HIP_CHECK(hipDeviceGetPCIBusId(bus, sizeof(bus), gpu));
  WARN("HIP sees " << p.name << " (" << p.gcnArchName << ") at " << bus << " as device " << gpu);
  size_t free_bytes = 0, total = 0;
  HIP_CHECK(hipMemGetInfo(&free_bytes, &total));
  CHECK(total == p.totalGlobalMem);
  CHECK(free_bytes > 0);
  CHECK(free_bytes <= total);
}

TEST_CASE("Cuda_Hip_HostCompiledKernel_NoBinaryForGpu") {
  if (gpu_or_skip() < 0) return;
  int* p = nullptr;
  HIP_CHECK(hipMalloc(&p, sizeof(int)));
  (void)hipGetLastError();
  hipLaunchKernelGGL(host_compiled_kernel, dim3(1), dim3(1), 0, 0, p);
  CHECK(hipGetLastError() == hipErrorNoBinaryForGpu);
  HIP_CHECK(hipFree(p));
}

TEST_CASE("Cuda_Hip_Memory_AllKinds") {
  if (gpu_or_skip() < 0) return;
  constexpr size_t n = 1 << 16;
  std::vector<int> src(n), dst(n, 0);
  std::iota(src.begin(), src.end(), 1);
  int *dev = nullptr, *managed = nullptr, *pinned = nullptr;
  HIP_CHECK(hipMalloc(&dev, n * sizeof(int)));
  HIP_CHECK(hipMallocManaged(&managed, n * sizeof(int), hipMemAttachGlobal));
  HIP_CHECK(hipHostMalloc(&pinned, n * sizeof(int), 0));
  hip_test::Stream stream;
  HIP_CHECK(hipMemcpyAsync(dev, src.data(), n * sizeof(int), hipMemcpyHostToDevice, stream.get()));
  HIP_CHECK(hipMemcpyAsync(managed, dev, n * sizeof(int), hipMemcpyDefault, stream.get()));
  HIP_CHECK(hipMemcpyAsync(pinned, managed, n * sizeof(int), hipMemcpyDefault, stream.get()));
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  CHECK(pinned[n - 1] == int(n));
  CHECK(managed[7] == 8);
  HIP_CHECK(hipMemsetD32(dev, 0x01020304, n));
  HIP_CHECK(hipMemcpy(dst.data(), dev, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(dst[0] == 0x01020304);
  CHECK(dst[n - 1] == 0x01020304);

  std::vector<int> registered(n, 5);
  HIP_CHECK(hipHostRegister(registered.data(), n * sizeof(int), hipHostRegisterDefault));
  void* view = nullptr;
  HIP_CHECK(hipHostGetDevicePointer(&view, registered.data(), 0));
  HIP_CHECK(hipMemset(view, 0, n * sizeof(int)));
  CHECK(registered[n - 1] == 0);
  HIP_CHECK(hipHostUnregister(registered.data()));

  HIP_CHECK(hipFree(dev));
  HIP_CHECK(hipFree(managed));
  HIP_CHECK(hipHostFree(pinned));
}

// The CPU agent cannot touch GPU memory: a copy or memset of it on a CPU-agent
// stream is refused with hipErrorInvalidValue (never a memmove of a device
// address), and the same copy on the GPU's own stream works.
TEST_CASE("Cuda_Hip_Memory_GpuMemoryFromCpuAgentStream") {
  int gpu = gpu_or_skip();
  if (gpu < 0) return;
  int cpu = agents().cpu;
  if (cpu < 0) {
    hip_test::skip("no CPU agent (WEFT_CPU_AGENT=0?)");
    return;
  }
  constexpr size_t n = 1 << 16;
  int* dev = nullptr;
  HIP_CHECK(hipMalloc(&dev, n * sizeof(int)));
  std::vector<int> src(n), dst(n, 0);
  std::iota(src.begin(), src.end(), 3);
  HIP_CHECK(hipSetDevice(cpu));
  CHECK(hipMemcpy(dev, src.data(), n * sizeof(int), hipMemcpyHostToDevice) == hipErrorInvalidValue);
  CHECK(hipMemset(dev, 0, n * sizeof(int)) == hipErrorInvalidValue);
  hip_test::Stream stream;  // a stream of the CPU agent
  CHECK(hipMemcpyAsync(dst.data(), dev, n * sizeof(int), hipMemcpyDefault, stream.get()) ==
        hipErrorInvalidValue);
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  HIP_CHECK(hipSetDevice(gpu));
  HIP_CHECK(hipMemcpy(dev, src.data(), n * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dst.data(), dev, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(dst == src);
  (void)hipGetLastError();
  HIP_CHECK(hipFree(dev));
}

TEST_CASE("Cuda_Hip_CrossAgentEvents") {
  int gpu = gpu_or_skip();
  if (gpu < 0) return;
  int cpu = agents().cpu;
  if (cpu < 0) {
    hip_test::skip("the CPU agent is hidden (WEFT_CPU_AGENT=0)");
    return;
  }
  // A CPU-agent stream held by a callback; a GPU stream waits for its event.
  HIP_CHECK(hipSetDevice(cpu));
  hipStream_t cpu_stream = nullptr;
  hipEvent_t cpu_event = nullptr;
  HIP_CHECK(hipStreamCreate(&cpu_stream));
  HIP_CHECK(hipEventCreate(&cpu_event));
  std::atomic<bool> release{false};
  struct Release {  // a failed REQUIRE must not leave the CPU stream blocked
    std::atomic<bool>& flag;
    ~Release() {
      flag = true;
      (void)hipDeviceSynchronize();
    }
  } guard{release};
  HIP_CHECK(hipLaunchHostFunc(
      cpu_stream,
      [](void* p) {
    auto* r = static_cast<std::atomic<bool>*>(p);
    while (!r->load()) std::this_thread::sleep_for(std::chrono::microseconds(100));
      },
      &release));
  HIP_CHECK(hipEventRecord(cpu_event, cpu_stream));

  HIP_CHECK(hipSetDevice(gpu));
  hipStream_t gpu_stream = nullptr;
  HIP_CHECK(hipStreamCreate(&gpu_stream));
  int* word = nullptr;
  HIP_CHECK(hipHostMalloc(&word, sizeof(int), 0));
  *word = 0;
  HIP_CHECK(hipStreamWaitEvent(gpu_stream, cpu_event, 0));
  HIP_CHECK(hipMemsetD32Async(word, 9, 1, gpu_stream));
  hip_test::sleep_ms(50);
  CHECK(hipStreamQuery(gpu_stream) == hipErrorNotReady);
  CHECK(__atomic_load_n(word, __ATOMIC_ACQUIRE) == 0);
  release = true;
  HIP_CHECK(hipStreamSynchronize(gpu_stream));
  CHECK(*word == 9);

  // And back: the CPU stream waits for a GPU event.
  hipEvent_t gpu_event = nullptr;
  HIP_CHECK(hipEventCreate(&gpu_event));
  HIP_CHECK(hipMemsetD32Async(word, 11, 1, gpu_stream));
  HIP_CHECK(hipEventRecord(gpu_event, gpu_stream));
  HIP_CHECK(hipStreamWaitEvent(cpu_stream, gpu_event, 0));
  int seen = 0;
  std::array<int*, 2> pair{word, &seen};
  HIP_CHECK(hipLaunchHostFunc(
      cpu_stream,
      [](void* p) {
    auto** words = static_cast<int**>(p);
    *words[1] = __atomic_load_n(words[0], __ATOMIC_ACQUIRE);
      },
      pair.data()));
  HIP_CHECK(hipStreamSynchronize(cpu_stream));
  CHECK(seen == 11);
  HIP_CHECK(hipEventDestroy(gpu_event));
  HIP_CHECK(hipEventDestroy(cpu_event));
  HIP_CHECK(hipStreamDestroy(gpu_stream));
  HIP_CHECK(hipStreamDestroy(cpu_stream));
  HIP_CHECK(hipHostFree(word));
}

TEST_CASE("Cuda_Hip_EventTimingAndCallbacks") {
  if (gpu_or_skip() < 0) return;
  hip_test::Stream stream;
  hip_test::Event start, stop;
  constexpr size_t bytes = size_t(256) << 20;
  void *a = nullptr, *b = nullptr;
  HIP_CHECK(hipMalloc(&a, bytes));
  HIP_CHECK(hipMalloc(&b, bytes));
  HIP_CHECK(hipEventRecord(start.get(), stream.get()));
  HIP_CHECK(hipMemcpyAsync(b, a, bytes, hipMemcpyDeviceToDevice, stream.get()));
  HIP_CHECK(hipEventRecord(stop.get(), stream.get()));
  std::atomic<int> called{0};
  HIP_CHECK(hipStreamAddCallback(
      stream.get(),
      [](hipStream_t, hipError_t status, void* p) {
    if (status == hipSuccess) static_cast<std::atomic<int>*>(p)->fetch_add(1);
      },
      &called, 0));
  HIP_CHECK(hipEventSynchronize(stop.get()));
  float ms = 0;
  HIP_CHECK(hipEventElapsedTime(&ms, start.get(), stop.get()));
  CHECK(ms > 0.0f);
  WARN("256 MiB device copy: " << ms << " ms, " << 2.0 * bytes / (ms * 1e-3) / 1e12 << " TB/s");
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  CHECK(called.load() == 1);
  // hipFreeAsync releases memory from a stream-ordered host function.
  HIP_CHECK(hipFreeAsync(b, stream.get()));
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  HIP_CHECK(hipFree(a));
}

TEST_CASE("Cuda_Hip_Peer") {
  int gpu = gpu_or_skip();
  if (gpu < 0) return;
  int can = -1;
  HIP_CHECK(hipDeviceCanAccessPeer(&can, gpu, gpu));
  CHECK(can == 0);
  HIP_CHECK_ERROR(hipDeviceEnablePeerAccess(gpu, 0), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceEnablePeerAccess(gpu, 1), hipErrorInvalidValue);
  int* dev = nullptr;
  int* dev2 = nullptr;
  HIP_CHECK(hipMalloc(&dev, 64 * sizeof(int)));
  HIP_CHECK(hipMalloc(&dev2, 64 * sizeof(int)));
  HIP_CHECK(hipMemsetD32(dev, 42, 64));
  HIP_CHECK(hipMemcpyPeer(dev2, gpu, dev, gpu, 64 * sizeof(int)));
  int cpu = agents().cpu;
  if (cpu >= 0) {
    HIP_CHECK(hipDeviceCanAccessPeer(&can, gpu, cpu));
    CHECK(can == 0);
    HIP_CHECK_ERROR(hipDeviceEnablePeerAccess(cpu, 0), hipErrorPeerAccessUnsupported);
    // The CPU agent's memory is host memory: peer copies to and from it work.
    HIP_CHECK(hipSetDevice(cpu));
    int* host_side = nullptr;
    HIP_CHECK(hipMalloc(&host_side, 64 * sizeof(int)));
    HIP_CHECK(hipSetDevice(gpu));
    HIP_CHECK(hipMemcpyPeer(host_side, cpu, dev2, gpu, 64 * sizeof(int)));
    CHECK(host_side[63] == 42);
    host_side[0] = 7;
    HIP_CHECK(hipMemcpyPeer(dev, gpu, host_side, cpu, sizeof(int)));
    int back = 0;
    HIP_CHECK(hipMemcpy(&back, dev, sizeof(int), hipMemcpyDeviceToHost));
    CHECK(back == 7);
    HIP_CHECK(hipSetDevice(cpu));
    HIP_CHECK(hipFree(host_side));
    HIP_CHECK(hipSetDevice(gpu));
  }
  HIP_CHECK(hipFree(dev));
  HIP_CHECK(hipFree(dev2));
}

TEST_CASE("Cuda_Hip_Peer_TwoGpus") {
  int gpu = gpu_or_skip();
  if (gpu < 0) return;
  int count = 0, other = -1;
  HIP_CHECK(hipGetDeviceCount(&count));
  for (int i = 0; i < count && other < 0; ++i) {
    hipDeviceProp_t p{};
    HIP_CHECK(hipGetDeviceProperties(&p, i));
    if (i != gpu && std::string(p.gcnArchName).rfind("sm_", 0) == 0) other = i;
  }
  if (other < 0) {
    hip_test::skip("one NVIDIA GPU: peer access between GPUs needs two");
    return;
  }
  int can = 0;
  HIP_CHECK(hipDeviceCanAccessPeer(&can, gpu, other));
  WARN("device " << gpu << " can access device " << other << ": " << can);
  constexpr size_t n = size_t(64) << 20;
  char *a = nullptr, *b = nullptr;
  HIP_CHECK(hipMalloc(&a, n));
  HIP_CHECK(hipMemset(a, 0x3c, n));
  HIP_CHECK(hipSetDevice(other));
  HIP_CHECK(hipMalloc(&b, n));
  HIP_CHECK(hipMemset(b, 0, n));
  HIP_CHECK(hipSetDevice(gpu));
  if (can) {
    HIP_CHECK(hipDeviceEnablePeerAccess(other, 0));
    HIP_CHECK_ERROR(hipDeviceEnablePeerAccess(other, 0), hipErrorPeerAccessAlreadyEnabled);
  }
  // Copies work with or without peer access (staged through the host without it).
  HIP_CHECK(hipMemcpyPeer(b, other, a, gpu, n));
  std::vector<char> back(n);
  HIP_CHECK(hipMemcpy(back.data(), b, n, hipMemcpyDefault));
  CHECK(back[0] == 0x3c);
  CHECK(back[n - 1] == 0x3c);
  hip_test::Stream stream;
  HIP_CHECK(hipMemset(a, 0x11, n));
  auto t0 = std::chrono::steady_clock::now();
  HIP_CHECK(hipMemcpyPeerAsync(b, other, a, gpu, n, stream.get()));
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN("peer copy of 64 MiB: " << n / s / 1e9 << " GB/s");
  HIP_CHECK(hipMemcpy(back.data(), b, n, hipMemcpyDefault));
  CHECK(back[n / 2] == 0x11);
  if (can) {
    HIP_CHECK(hipDeviceDisablePeerAccess(other));
    HIP_CHECK_ERROR(hipDeviceDisablePeerAccess(other), hipErrorPeerAccessNotEnabled);
  }
  HIP_CHECK(hipFree(a));
  HIP_CHECK(hipSetDevice(other));
  HIP_CHECK(hipFree(b));
}

TEST_CASE("Cuda_Hip_Ipc_WithChildProcess") {
  int gpu = gpu_or_skip();
  if (gpu < 0) return;
  auto child = std::filesystem::read_symlink("/proc/self/exe").parent_path() / "cuda_ipc_child";
  if (!std::filesystem::exists(child)) {
    hip_test::skip(child.string() + " not built");
    return;
  }
  constexpr size_t n = 1024;
  int* dev = nullptr;
  HIP_CHECK(hipMalloc(&dev, n * sizeof(int)));
  HIP_CHECK(hipMemsetD32(dev, 0x77, n));
  hipIpcMemHandle_t mem{};
  HIP_CHECK(hipIpcGetMemHandle(&mem, dev));
  HIP_CHECK_ERROR(hipIpcGetMemHandle(&mem, dev + 1), hipErrorInvalidValue);
  hipEvent_t event = nullptr;
  HIP_CHECK_ERROR(hipEventCreateWithFlags(&event, hipEventInterprocess), hipErrorInvalidValue);
  HIP_CHECK(hipEventCreateWithFlags(&event, hipEventInterprocess | hipEventDisableTiming));
  hip_test::Stream stream;
  HIP_CHECK(hipEventRecord(event, stream.get()));
  hipIpcEventHandle_t ev{};
  HIP_CHECK(hipIpcGetEventHandle(&ev, event));
  hip_test::Event plain;
  HIP_CHECK_ERROR(hipIpcGetEventHandle(&ev, plain.get()), hipErrorInvalidHandle);

  std::string ordinal = std::to_string(gpu), mem_hex = hex(&mem, sizeof(mem)),
              ev_hex = hex(&ev, sizeof(ev));
  std::string path = child.string();
  char* argv[] = {path.data(), ordinal.data(), mem_hex.data(), ev_hex.data(), nullptr};
  pid_t pid = 0;
  REQUIRE(posix_spawn(&pid, path.c_str(), nullptr, nullptr, argv, environ) == 0);
  int status = 0;
  pid_t done = 0;
  for (int i = 0; i < 600 && done == 0; ++i) {  // 60 s, then the child is stuck
    done = waitpid(pid, &status, WNOHANG);
    if (done == 0) hip_test::sleep_ms(100);
  }
  if (done == 0) {
    kill(pid, SIGKILL);
    (void)waitpid(pid, &status, 0);
    FAIL("cuda_ipc_child did not finish within 60 s");
  }
  REQUIRE(done == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  std::vector<int> back(n);
  HIP_CHECK(hipMemcpy(back.data(), dev, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(back[0] == 0x5eed);
  CHECK(back[n - 1] == 0x5eed);
  HIP_CHECK_ERROR(hipIpcCloseMemHandle(dev), hipErrorInvalidValue);
  HIP_CHECK(hipEventDestroy(event));
  HIP_CHECK(hipFree(dev));
}
