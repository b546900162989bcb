// SPDX-License-Identifier: MIT
// Contract targets for the NVIDIA driver (drivers/cuda), one per executable:
//
// - contract_cuda_fake (CONTRACT_CUDA_FAKE defined): the driver on the fake
//   CUDA table of tests/drivers/cuda/fake_cuda.*, two devices. The fake
//   records most calls without running them; on top of it this target runs
//   what CUDA would run, on the fake's host memory (device pointers are host
//   pointers there: unified addressing): memsets, 2D copies, host functions
//   (at the call: every fake stream op is complete when it is issued, so the
//   stream has reached that point), stream waits on a host word (the caller
//   waits), managed memory and host registration; allocations are 256-byte
//   aligned as CUDA's are. It
//   refuses what a device could not hold (out of memory) and answers
//   CUDA_ERROR_NOT_SUPPORTED for required entry points the fake lacks (IPC,
//   peers, cuEventElapsedTime), so a check that reaches one sees an error, not
//   a null call. Event timing is not modelled: that check skips.
// - contract_cuda: the real libcuda, only when WEFT_CONTRACT_REAL_CUDA=1 (the
//   H200 run); otherwise every check skips. No GPU: the checks skip too.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "api.hpp"
#include "target.hpp"

#ifdef CONTRACT_CUDA_FAKE
#include "fake_cuda.hpp"
#endif

namespace weft::cuda {
std::unique_ptr<Driver> make_driver();
}

namespace {

#ifdef CONTRACT_CUDA_FAKE
const weft::cuda::Api* g_recording = nullptr;    // the fake's own table
constexpr size_t kCapacity = size_t(141) << 30;  // what the fake's cuDeviceTotalMem reports

template <typename F>
struct NotSupported;
template <typename... A>
struct NotSupported<CUresult (*)(A...)> {
  static CUresult call(A...) { return CUDA_ERROR_NOT_SUPPORTED; }
};

template <typename T>
void fill_elements(CUdeviceptr dst, size_t pitch, T value, size_t width, size_t height) {
  for (size_t r = 0; r < height; ++r) {
    auto* row = reinterpret_cast<std::byte*>(dst + r * pitch);
    for (size_t i = 0; i < width; ++i) std::memcpy(row + i * sizeof(T), &value, sizeof(T));
  }
}

// CUDA's allocations are at least 256-byte aligned, and never larger than the
// device. Freed by the fake's cuMemFree / cuMemFreeHost (std::free).
void* aligned_zeroed(size_t n) {
  size_t rounded = n == 0 ? 256 : (n + 255) / 256 * 256;
  void* p = std::aligned_alloc(256, rounded);
  if (p) std::memset(p, 0, rounded);
  return p;
}
CUresult mem_alloc(CUdeviceptr* p, size_t n) {
  if (n > kCapacity) return CUDA_ERROR_OUT_OF_MEMORY;
  void* memory = aligned_zeroed(n);
  if (!memory) return CUDA_ERROR_OUT_OF_MEMORY;
  *p = reinterpret_cast<CUdeviceptr>(memory);
  return CUDA_SUCCESS;
}
CUresult mem_alloc_managed(CUdeviceptr* p, size_t n, unsigned) { return mem_alloc(p, n); }
CUresult host_alloc(void** p, size_t n, unsigned) {
  if (n > kCapacity) return CUDA_ERROR_OUT_OF_MEMORY;
  *p = aligned_zeroed(n);
  return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
// The stream waits until the word reaches `value` (cyclic order, as CUDA
// compares): here the caller waits, since every later op runs at its call.
CUresult wait_value(CUstream s, CUdeviceptr address, cuuint32_t value, unsigned flags) {
  CUresult r = g_recording->cuStreamWaitValue32(s, address, value, flags);
  auto* word = reinterpret_cast<uint32_t*>(address);
  while (static_cast<int32_t>(__atomic_load_n(word, __ATOMIC_ACQUIRE) - value) < 0)
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  return r;
}
CUresult host_register(void*, size_t, unsigned) { return CUDA_SUCCESS; }
CUresult host_unregister(void*) { return CUDA_SUCCESS; }
CUresult memset_d8(CUdeviceptr d, unsigned char v, size_t n, CUstream s) {
  CUresult r = g_recording->cuMemsetD8Async(d, v, n, s);
  if (r == CUDA_SUCCESS) fill_elements<unsigned char>(d, n, v, n, 1);
  return r;
}
CUresult memset_d16(CUdeviceptr d, unsigned short v, size_t n, CUstream s) {
  CUresult r = g_recording->cuMemsetD16Async(d, v, n, s);
  if (r == CUDA_SUCCESS) fill_elements<unsigned short>(d, n * 2, v, n, 1);
  return r;
}
CUresult memset_d32(CUdeviceptr d, unsigned v, size_t n, CUstream s) {
  CUresult r = g_recording->cuMemsetD32Async(d, v, n, s);
  if (r == CUDA_SUCCESS) fill_elements<unsigned>(d, n * 4, v, n, 1);
  return r;
}
CUresult memset_2d8(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h, CUstream s) {
  CUresult r = g_recording->cuMemsetD2D8Async(d, pitch, v, w, h, s);
  if (r == CUDA_SUCCESS) fill_elements<unsigned char>(d, pitch, v, w, h);
  return r;
}
CUresult memset_2d16(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h,
                     CUstream s) {
  CUresult r = g_recording->cuMemsetD2D16Async(d, pitch, v, w, h, s);
  if (r == CUDA_SUCCESS) fill_elements<unsigned short>(d, pitch, v, w, h);
  return r;
}
CUresult memset_2d32(CUdeviceptr d, size_t pitch, unsigned v, size_t w, size_t h, CUstream s) {
  CUresult r = g_recording->cuMemsetD2D32Async(d, pitch, v, w, h, s);
  if (r == CUDA_SUCCESS) fill_elements<unsigned>(d, pitch, v, w, h);
  return r;
}
const std::byte* side(CUmemorytype type, const void* host, CUdeviceptr device) {
  return type == CU_MEMORYTYPE_HOST ? static_cast<const std::byte*>(host)
                                    : reinterpret_cast<const std::byte*>(device);
}
CUresult memcpy_2d(const CUDA_MEMCPY2D* c, CUstream s) {
  CUresult r = g_recording->cuMemcpy2DAsync(c, s);
  if (r != CUDA_SUCCESS) return r;
  const std::byte* src =
      side(c->srcMemoryType, c->srcHost, c->srcDevice) + c->srcY * c->srcPitch + c->srcXInBytes;
  auto* dst = const_cast<std::byte*>(side(c->dstMemoryType, c->dstHost, c->dstDevice)) +
              c->dstY * c->dstPitch + c->dstXInBytes;
  for (size_t row = 0; row < c->Height; ++row)
    std::memmove(dst + row * c->dstPitch, src + row * c->srcPitch, c->WidthInBytes);
  return CUDA_SUCCESS;
}
CUresult launch_host_func(CUstream, CUhostFn fn, void* data) {
  fn(data);
  return CUDA_SUCCESS;
}
// Each device its own UUID, as on a real machine.
CUresult device_uuid(CUuuid* uuid, CUdevice device) {
  CUresult r = g_recording->cuDeviceGetUuid(uuid, device);
  uuid->bytes[0] = static_cast<char>(device);
  return r;
}

void install_fake() {
  // Never destroyed (driver objects live to the end); held here so that leak
  // checkers see it reachable.
  static fake_cuda::FakeCuda* fake = new fake_cuda::FakeCuda();
  fake_cuda::state().device_count = 2;
  // The block, grid and SM thread limits of an sm_90 device, which the fake leaves out.
  fake_cuda::set_sm90_launch_limits();
  auto& attributes = fake_cuda::state().attributes;
  attributes[CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR] = 2048;
  g_recording = &fake->api();
  static weft::cuda::Api table = fake->api();
#define CONTRACT_FILL_REQUIRED(name) \
  if (!table.name) table.name = &NotSupported<decltype(table.name)>::call;
#define CONTRACT_KEEP_OPTIONAL(name)
  WEFT_CUDA_SYMBOLS(CONTRACT_FILL_REQUIRED, CONTRACT_KEEP_OPTIONAL)
#undef CONTRACT_FILL_REQUIRED
#undef CONTRACT_KEEP_OPTIONAL
  table.cuMemAlloc = mem_alloc;
  table.cuMemAllocManaged = mem_alloc_managed;
  table.cuMemHostAlloc = host_alloc;
  table.cuMemHostRegister = host_register;
  table.cuMemHostUnregister = host_unregister;
  table.cuMemsetD8Async = memset_d8;
  table.cuMemsetD16Async = memset_d16;
  table.cuMemsetD32Async = memset_d32;
  table.cuMemsetD2D8Async = memset_2d8;
  table.cuMemsetD2D16Async = memset_2d16;
  table.cuMemsetD2D32Async = memset_2d32;
  table.cuMemcpy2DAsync = memcpy_2d;
  table.cuLaunchHostFunc = launch_host_func;
  table.cuStreamWaitValue32 = wait_value;
  table.cuDeviceGetUuid = device_uuid;
  weft::cuda::set_api_for_testing(&table);
}

std::unique_ptr<weft::Driver> make_on_fake() {
  static const bool installed = (install_fake(), true);
  (void)installed;
  return weft::cuda::make_driver();
}
#endif

}  // namespace

namespace contract {

const Target& target() {
  static const Target t = [] {
    Target made;
#ifdef CONTRACT_CUDA_FAKE
    made.name = "cuda-fake";
    made.make_driver = make_on_fake;
    made.no_elapsed_time =
        "the fake CUDA table has no cuEventElapsedTime (cuda_driver_gpu times events on a GPU)";
    made.failing_op = [](weft::Device&) -> weft::Result<FailingOp> {
      return weft::Status(hipErrorNotSupported,
                          "the fake CUDA table reports no asynchronous faults");
    };
#else
    made.name = "cuda";
    const char* real = std::getenv("WEFT_CONTRACT_REAL_CUDA");
    if (!real || std::string(real) != "1")
      made.unavailable =
          "set WEFT_CONTRACT_REAL_CUDA=1 to run the suite on the real libcuda (a GPU machine)";
    made.must_have_agents = false;
    made.make_driver = [] { return weft::cuda::make_driver(); };
    made.failing_op = [](weft::Device&) -> weft::Result<FailingOp> {
      return weft::Status(hipErrorNotSupported,
                          "a faulting kernel needs a cubin; tests/drivers/cuda/cuda_fault checks "
                          "the sticky fault on a GPU");
    };
#endif
    return made;
  }();
  return t;
}

}  // namespace contract
