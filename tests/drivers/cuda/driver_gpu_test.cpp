// SPDX-License-Identifier: MIT
// The NVIDIA driver on a real GPU, through the driver interface: discovery and
// properties, memory of every kind, copies and fills, code objects (cubin,
// fatbin, PTX), launches with packed arguments, events, cross-queue and
// cross-agent waits, host functions. Kernels come from kernels.cu (nvcc).
// Without a GPU every case prints SKIPPED and the binary exits 77.
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <thread>

#include "event.hpp"
#include "gpu_support.hpp"

using gpu_test::ArgPacker;
using gpu_test::dispatch;
using gpu_test::gpu;
using gpu_test::kernel;
using gpu_test::value_of;

namespace {

// Pinned host memory of the device under test, freed at scope end.
template <typename T>
class Pinned {
 public:
  Pinned(weft::Device& d, size_t n) : device_(d), n_(n) {
    ptr_ = static_cast<T*>(value_of(d.allocate(weft::MemoryKind::kHostPinned, n * sizeof(T), 0)));
  }
  ~Pinned() { (void)device_.deallocate(ptr_, n_ * sizeof(T), weft::MemoryKind::kHostPinned); }
  T* get() const { return ptr_; }
  T& operator[](size_t i) const { return ptr_[i]; }

 private:
  weft::Device& device_;
  size_t n_;
  T* ptr_;
};

template <typename T>
class DeviceMem {
 public:
  DeviceMem(weft::Device& d, size_t n, weft::MemoryKind kind = weft::MemoryKind::kDevice)
      : device_(d), n_(n), kind_(kind) {
    ptr_ = static_cast<T*>(value_of(d.allocate(kind, n * sizeof(T), 0)));
  }
  ~DeviceMem() { (void)device_.deallocate(ptr_, n_ * sizeof(T), kind_); }
  T* get() const { return ptr_; }

 private:
  weft::Device& device_;
  size_t n_;
  weft::MemoryKind kind_;
  T* ptr_;
};

weft::CopyOp copy_op(void* dst, const void* src, size_t bytes) {
  weft::CopyOp c;
  c.dst = dst;
  c.src = src;
  c.width = bytes;
  return c;
}

using hip_test::ManualEvent;

}  // namespace

TEST_CASE("Cuda_Gpu_Discovery_Properties") {
  auto* d = gpu();
  if (!d) return;
  hipDeviceProp_tR0600 p{};
  d->properties(p);
  INFO("name " << p.name << " arch " << p.gcnArchName);
  CHECK(p.warpSize == 32);
  CHECK(std::string(p.gcnArchName).rfind("sm_", 0) == 0);
  CHECK(std::string(p.gcnArchName) == d->target_id());
  CHECK(p.totalGlobalMem > (size_t(1) << 30));
  CHECK(p.multiProcessorCount > 0);
  CHECK(p.maxThreadsPerBlock == 1024);
  CHECK(p.clockRate > 0);
  CHECK(p.memoryClockRate > 0);
  CHECK(p.l2CacheSize > 0);
  CHECK(p.unifiedAddressing == 1);
  CHECK(p.managedMemory == 1);
  WARN("GPU: " << p.name << ", " << p.gcnArchName << ", " << p.multiProcessorCount << " SMs, "
               << (p.totalGlobalMem >> 20) << " MiB, PCI " << p.pciDomainID << ":" << p.pciBusID
               << ":" << p.pciDeviceID << ", clock " << p.clockRate << " kHz");
  auto info = d->memory_info();
  CHECK(info.total_bytes > 0);
  CHECK(info.free_bytes <= info.total_bytes);
  CHECK(info.free_bytes > 0);
}

TEST_CASE("Cuda_Gpu_Memory_CopiesAndFillsOfEveryKind") {
  auto* d = gpu();
  if (!d) return;
  auto queue = value_of(d->create_queue(weft::QueueOptions{}));
  constexpr size_t n = 1 << 20;
  DeviceMem<uint32_t> dev(*d, n), dev2(*d, n);
  DeviceMem<uint32_t> managed(*d, n, weft::MemoryKind::kManaged);
  Pinned<uint32_t> pinned(*d, n);
  std::vector<uint32_t> pageable(n), back(n);
  std::iota(pageable.begin(), pageable.end(), 7u);

  // pageable → device → device → pinned → managed → pageable
  WEFT_REQUIRE_OK(queue->submit(copy_op(dev.get(), pageable.data(), n * 4)));
  WEFT_REQUIRE_OK(queue->submit(copy_op(dev2.get(), dev.get(), n * 4)));
  WEFT_REQUIRE_OK(queue->submit(copy_op(pinned.get(), dev2.get(), n * 4)));
  WEFT_REQUIRE_OK(queue->submit(copy_op(managed.get(), pinned.get(), n * 4)));
  WEFT_REQUIRE_OK(queue->submit(copy_op(back.data(), managed.get(), n * 4)));
  WEFT_REQUIRE_OK(queue->synchronize());
  CHECK(back == pageable);
  CHECK(managed.get()[12345] == 7u + 12345);  // managed memory is host-readable

  // Host to host through the queue (pageable on both sides).
  std::vector<uint32_t> h2h(n, 0);
  WEFT_REQUIRE_OK(queue->submit(copy_op(h2h.data(), pageable.data(), n * 4)));
  WEFT_REQUIRE_OK(queue->synchronize());
  CHECK(h2h == pageable);

  // Fills of 1, 2 and 4 bytes, and a 2D fill.
  weft::FillOp fill;
  fill.dst = dev.get();
  fill.width_elements = n;
  fill.element_size = 4;
  fill.value = 0xdeadbeef;
  WEFT_REQUIRE_OK(queue->submit(fill));
  fill.element_size = 2;
  fill.value = 0x1234;
  fill.width_elements = 4;  // first 8 bytes
  WEFT_REQUIRE_OK(queue->submit(fill));
  fill.element_size = 1;
  fill.value = 0xab;
  fill.width_elements = 2;  // first 2 bytes
  WEFT_REQUIRE_OK(queue->submit(fill));
  WEFT_REQUIRE_OK(queue->submit(copy_op(back.data(), dev.get(), n * 4)));
  WEFT_REQUIRE_OK(queue->synchronize());
  CHECK(back[0] == 0x1234abab);
  CHECK(back[1] == 0x12341234);
  CHECK(back[2] == 0xdeadbeef);
  CHECK(back[n - 1] == 0xdeadbeef);

  // 2D: fill 3 rows of 5 bytes with pitch 16, copy to a pitch-8 host buffer.
  weft::FillOp fill2d;
  fill2d.dst = dev.get();
  fill2d.value = 0x5a;
  fill2d.element_size = 1;
  fill2d.width_elements = 5;
  fill2d.height = 3;
  fill2d.pitch = 16;
  WEFT_REQUIRE_OK(queue->submit(copy_op(dev.get(), std::vector<uint8_t>(64, 0).data(), 64)));
  WEFT_REQUIRE_OK(queue->submit(fill2d));
  std::vector<uint8_t> host2d(24, 0xff);
  weft::CopyOp c2d;
  c2d.dst = host2d.data();
  c2d.dst_pitch = 8;
  c2d.src = dev.get();
  c2d.src_pitch = 16;
  c2d.width = 6;
  c2d.height = 3;
  WEFT_REQUIRE_OK(queue->submit(c2d));
  WEFT_REQUIRE_OK(queue->synchronize());
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 5; ++col) CHECK(host2d[row * 8 + col] == 0x5a);
    CHECK(host2d[row * 8 + 5] == 0);     // inside the copy, outside the fill
    CHECK(host2d[row * 8 + 6] == 0xff);  // outside the copy
  }
}

TEST_CASE("Cuda_Gpu_RegisterHost") {
  auto* d = gpu();
  if (!d) return;
  auto queue = value_of(d->create_queue(weft::QueueOptions{}));
  std::vector<uint32_t> host(4096, 1);
  void* device_view = value_of(d->register_host(host.data(), host.size() * 4, 0));
  CHECK(device_view != nullptr);
  weft::FillOp fill;
  fill.dst = device_view;
  fill.width_elements = host.size();
  fill.element_size = 4;
  fill.value = 99;
  WEFT_REQUIRE_OK(queue->submit(fill));
  WEFT_REQUIRE_OK(queue->synchronize());
  CHECK(host[0] == 99);
  CHECK(host[4095] == 99);
  CHECK(d->register_host(host.data(), host.size() * 4, 0).status().code() ==
        hipErrorHostMemoryAlreadyRegistered);
  WEFT_REQUIRE_OK(d->unregister_host(host.data()));
  CHECK(d->unregister_host(host.data()).code() == hipErrorHostMemoryNotRegistered);
}

TEST_CASE("Cuda_Gpu_Modules_CubinFatbinPtx") {
  auto* d = gpu();
  if (!d) return;
  auto queue = value_of(d->create_queue(weft::QueueOptions{}));
  DeviceMem<unsigned> out(*d, 256);
  for (const char* file : {"kernels.cubin", "kernels.fatbin", "kernels.ptx"}) {
    INFO(file);
    auto image = gpu_test::kernel_file(file);
    if (image.empty()) return;
    if (std::string(file) == "kernels.ptx" && image.back() == std::byte{0}) image.pop_back();
    auto module = value_of(d->load_module(image));
    auto k = value_of(module->kernel("fill_index"));
    CHECK(k->info().kernarg_size == 16);
    REQUIRE(k->info().args.size() == 3);
    CHECK(k->info().num_registers > 0);
    auto args = ArgPacker(*k).add(out.get()).add(100u).add(256u).bytes();
    WEFT_REQUIRE_OK(queue->submit(dispatch(k, dim3(2), dim3(128), args)));
    std::vector<unsigned> host(256);
    WEFT_REQUIRE_OK(queue->submit(copy_op(host.data(), out.get(), 1024)));
    WEFT_REQUIRE_OK(queue->synchronize());
    CHECK(host[0] == 100);
    CHECK(host[255] == 355);
    CHECK(module->kernel("no_such_kernel").status().code() == hipErrorNotFound);
    auto global = value_of(module->global("module_global"));
    CHECK(global.size() == sizeof(int));
  }
  std::vector<std::byte> junk(64, std::byte{0x42});
  auto bad = d->load_module(junk);
  REQUIRE_FALSE(bad.ok());
  INFO(bad.status().message());
  CHECK(bad.status().code() == hipErrorInvalidImage);
  CHECK(bad.status().message().find("CUDA_ERROR_") != std::string::npos);
}

TEST_CASE("Cuda_Gpu_Launch_ArgumentPacking") {
  auto* d = gpu();
  if (!d) return;
  auto queue = value_of(d->create_queue(weft::QueueOptions{}));
  auto k = kernel("mixed_args");
  if (!k) return;
  const auto& info = k->info();
  REQUIRE(info.args.size() == 6);
  uint32_t expected[6] = {0, 8, 16, 24, 32, 40};
  for (int i = 0; i < 6; ++i) CHECK(info.args[i].offset == expected[i]);
  CHECK(info.kernarg_size == 48);
  Pinned<long long> ints(*d, 3);
  Pinned<double> dbl(*d, 1);
  auto args = ArgPacker(*k)
                  .add(char(-5))
                  .add(2.5)
                  .add(short(-300))
                  .add(ints.get())
                  .add(dbl.get())
                  .add(1LL << 40)
                  .bytes();
  WEFT_REQUIRE_OK(queue->submit(dispatch(k, dim3(1), dim3(1), args)));
  WEFT_REQUIRE_OK(queue->synchronize());
  CHECK(ints[0] == -5);
  CHECK(ints[1] == -300);
  CHECK(ints[2] == (1LL << 40));
  CHECK(dbl[0] == 2.5);

  auto big = kernel("big_struct");
  struct Big {
    int values[17];
  } b;
  for (int i = 0; i < 17; ++i) b.values[i] = i;
  Pinned<int> sum(*d, 1);
  WEFT_REQUIRE_OK(queue->submit(
      dispatch(big, dim3(1), dim3(1), ArgPacker(*big).add(b).add(sum.get()).bytes())));
  WEFT_REQUIRE_OK(queue->synchronize());
  int want = 0;
  for (int i = 0; i < 17; ++i) want += i * (i + 1);
  CHECK(sum[0] == want);

  // Too few argument bytes is refused before CUDA sees it.
  CHECK(queue->submit(dispatch(k, dim3(1), dim3(1), std::vector<std::byte>(8))).code() ==
        hipErrorInvalidValue);
  // A block too large is CUDA's to refuse; the error is mapped.
  auto empty = kernel("empty_kernel");
  auto too_big = queue->submit(dispatch(empty, dim3(1), dim3(2048), {}));
  INFO(too_big.message());
  CHECK(too_big.code() == hipErrorInvalidValue);
  WEFT_REQUIRE_OK(queue->submit(dispatch(empty, dim3(1), dim3(1), {})));
  WEFT_REQUIRE_OK(queue->synchronize());
}

TEST_CASE("Cuda_Gpu_Launch_LargeDynamicShared") {
  auto* d = gpu();
  if (!d) return;
  auto queue = value_of(d->create_queue(weft::QueueOptions{}));
  auto k = kernel("dynamic_shared");
  if (!k) return;
  constexpr unsigned words = 24 * 1024;  // 96 KiB, above CUDA's default 48 KiB
  Pinned<unsigned> out(*d, 1);
  out[0] = 0;
  WEFT_REQUIRE_OK(queue->submit(
      dispatch(k, dim3(1), dim3(256), ArgPacker(*k).add(out.get()).add(words).bytes(), words * 4)));
  WEFT_REQUIRE_OK(queue->synchronize());
  unsigned want = 0;
  for (unsigned i = 0; i < words; ++i) want += i * 3u;
  CHECK(out[0] == want);
}

TEST_CASE("Cuda_Gpu_Events_TimingAndState") {
  auto* d = gpu();
  if (!d) return;
  auto queue = value_of(d->create_queue(weft::QueueOptions{}));
  auto start = value_of(d->create_event(weft::EventOptions{}));
  weft::EventOptions blocking;
  blocking.blocking_sync = true;
  auto stop = value_of(d->create_event(blocking));
  CHECK(stop->is_complete());  // never recorded
  CHECK_FALSE(stop->ever_recorded());
  CHECK(stop->elapsed_ms_since(*start).status().code() == hipErrorInvalidHandle);
  auto sleep = kernel("sleep_ns");
  if (!sleep) return;
  WEFT_REQUIRE_OK(queue->submit(weft::EventRecordOp{start}));
  WEFT_REQUIRE_OK(
      queue->submit(dispatch(sleep, dim3(1), dim3(1), ArgPacker(*sleep).add(2000000ULL).bytes())));
  WEFT_REQUIRE_OK(queue->submit(weft::EventRecordOp{stop}));
  CHECK(stop->ever_recorded());
  WEFT_REQUIRE_OK(stop->synchronize());
  CHECK(stop->is_complete());
  float ms = value_of(stop->elapsed_ms_since(*start));
  WARN("2 ms kernel measured as " << ms << " ms");
  CHECK(ms > 0.0f);

  weft::EventOptions untimed;
  untimed.timing = false;
  auto plain = value_of(d->create_event(untimed));
  WEFT_REQUIRE_OK(queue->submit(weft::EventRecordOp{plain}));
  WEFT_REQUIRE_OK(queue->synchronize());
  CHECK(plain->elapsed_ms_since(*start).status().code() == hipErrorInvalidHandle);
}

TEST_CASE("Cuda_Gpu_CrossQueueWait_GpuSide") {
  auto* d = gpu();
  if (!d) return;
  auto a = value_of(d->create_queue(weft::QueueOptions{}));
  auto b = value_of(d->create_queue(weft::QueueOptions{}));
  auto wait = kernel("wait_flag");
  if (!wait) return;
  Pinned<unsigned> flag(*d, 4);
  flag[0] = 0;
  flag[1] = 0;
  flag[2] = 0;
  gpu_test::Finally release([&] { __atomic_store_n(&flag[0], 1u, __ATOMIC_RELEASE); });
  auto event = value_of(d->create_event(weft::EventOptions{}));
  WEFT_REQUIRE_OK(
      a->submit(dispatch(wait, dim3(1), dim3(1),
                         ArgPacker(*wait).add(flag.get()).add(1u).add(flag.get() + 1).bytes())));
  WEFT_REQUIRE_OK(a->submit(weft::EventRecordOp{event}));
  WEFT_REQUIRE_OK(b->submit(weft::EventWaitOp{event}));
  weft::FillOp fill;
  fill.dst = flag.get() + 2;
  fill.width_elements = 1;
  fill.element_size = 4;
  fill.value = 7;
  WEFT_REQUIRE_OK(b->submit(fill));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(b->is_idle());
  CHECK(__atomic_load_n(&flag[2], __ATOMIC_ACQUIRE) == 0u);
  __atomic_store_n(&flag[0], 1u, __ATOMIC_RELEASE);
  WEFT_REQUIRE_OK(b->synchronize());
  CHECK(flag[1] == 1u);
  CHECK(flag[2] == 7u);
}

TEST_CASE("Cuda_Gpu_ForeignEventWait_HostLane") {
  auto* d = gpu();
  if (!d) return;
  auto queue = value_of(d->create_queue(weft::QueueOptions{}));
  Pinned<unsigned> word(*d, 1);
  word[0] = 0;
  auto foreign = weft::make_ref<ManualEvent>();
  gpu_test::Finally release([&] { foreign->complete(); });
  WEFT_REQUIRE_OK(queue->submit(weft::EventWaitOp{foreign}));
  weft::FillOp fill;
  fill.dst = word.get();
  fill.width_elements = 1;
  fill.element_size = 4;
  fill.value = 5;
  WEFT_REQUIRE_OK(queue->submit(fill));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(queue->is_idle());
  CHECK(__atomic_load_n(word.get(), __ATOMIC_ACQUIRE) == 0u);
  foreign->complete();
  WEFT_REQUIRE_OK(queue->synchronize());
  CHECK(word[0] == 5u);
}

TEST_CASE("Cuda_Gpu_HostFunc_OrderedAndMayCallCuda") {
  auto* d = gpu();
  if (!d) return;
  auto queue = value_of(d->create_queue(weft::QueueOptions{}));
  auto k = kernel("fill_index");
  if (!k) return;
  Pinned<unsigned> out(*d, 64);
  std::atomic<unsigned> seen{0};
  std::atomic<bool> cuda_ok{false};
  WEFT_REQUIRE_OK(queue->submit(
      dispatch(k, dim3(1), dim3(64), ArgPacker(*k).add(out.get()).add(1000u).add(64u).bytes())));
  WEFT_REQUIRE_OK(queue->submit(weft::HostFuncOp{[&] {
    seen = __atomic_load_n(&out[63], __ATOMIC_ACQUIRE);
    // HIP callbacks may call HIP (hipFreeAsync's release does): CUDA calls work here.
    auto p = d->allocate(weft::MemoryKind::kDevice, 4096, 0);
    cuda_ok = p.ok() && d->deallocate(p.value(), 4096, weft::MemoryKind::kDevice).ok();
  }}));
  weft::FillOp fill;
  fill.dst = out.get();
  fill.width_elements = 1;
  fill.element_size = 4;
  fill.value = 1;
  WEFT_REQUIRE_OK(queue->submit(fill));  // after the callback
  WEFT_REQUIRE_OK(queue->synchronize());
  CHECK(seen.load() == 1063u);
  CHECK(cuda_ok.load());
  CHECK(out[0] == 1u);
}

TEST_CASE("Cuda_Gpu_QueueDestroy_DoesNotBlockAndWorkFinishes") {
  auto* d = gpu();
  if (!d) return;
  auto wait = kernel("wait_flag");
  if (!wait) return;
  Pinned<unsigned> flag(*d, 2);
  flag[0] = 0;
  flag[1] = 0;
  std::atomic<bool> ran{false};
  gpu_test::Finally release([&] {
    __atomic_store_n(&flag[0], 1u, __ATOMIC_RELEASE);
    for (int i = 0; i < 5000 && !ran.load(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  {
    weft::QueueOptions high;
    high.priority = -1;
    auto queue = value_of(d->create_queue(high));
    WEFT_REQUIRE_OK(queue->submit(
        dispatch(wait, dim3(1), dim3(1),
                 ArgPacker(*wait).add(flag.get()).add(1u).add(flag.get() + 1).bytes())));
    WEFT_REQUIRE_OK(queue->submit(weft::HostFuncOp{[&] { ran = true; }}));
  }  // destroyed while blocked
  CHECK_FALSE(ran.load());
  __atomic_store_n(&flag[0], 1u, __ATOMIC_RELEASE);
  for (int i = 0; i < 5000 && !ran.load(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(ran.load());
}

namespace {

// A kernel that spins on a host flag until release() (or the scope's end), on
// a queue of its own: the device stays busy while a case watches other threads.
class SpinningKernel {
 public:
  explicit SpinningKernel(weft::Device& d) : flag_(d, 2) {
    flag_[0] = 0;
    flag_[1] = 0;
    queue_ = value_of(d.create_queue(weft::QueueOptions{}));
  }
  ~SpinningKernel() {
    release();
    (void)queue_->synchronize();
  }
  bool start() {
    auto wait = kernel("wait_flag");
    if (!wait) return false;
    WEFT_REQUIRE_OK(queue_->submit(
        dispatch(wait, dim3(1), dim3(1),
                 ArgPacker(*wait).add(flag_.get()).add(1u).add(flag_.get() + 1).bytes())));
    return true;
  }
  void release() { __atomic_store_n(&flag_[0], 1u, __ATOMIC_RELEASE); }
  weft::Queue& queue() { return *queue_; }

 private:
  Pinned<unsigned> flag_;
  weft::Ref<weft::Queue> queue_;
};

// Runs `body` as a host function on a new queue and waits up to 5 s for it to
// finish; true when it did.
bool host_func_finishes(weft::Device& d, weft::Ref<weft::Queue>& queue,
                        std::function<void()> body) {
  queue = value_of(d.create_queue(weft::QueueOptions{}));
  auto done = std::make_shared<std::atomic<bool>>(false);
  WEFT_REQUIRE_OK(queue->submit(weft::HostFuncOp{[body = std::move(body), done] {
    body();
    *done = true;
  }}));
  for (int i = 0; i < 5000 && !*done; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return *done;
}

// Whether a third thread's CUDA calls (create a queue, fill `word` with `value`,
// synchronize) finish within 5 s while `spinning` keeps the device busy. If they
// hang, the kernel is let go (so the process lives) and the answer is false.
bool other_thread_calls_finish(weft::Device& d, SpinningKernel& spinning, Pinned<unsigned>& word,
                               unsigned value) {
  word[0] = 0;
  std::atomic<bool> calls_done{false};
  std::thread caller([&] {
    auto other = d.create_queue(weft::QueueOptions{});
    if (other.ok()) {
      weft::FillOp fill;
      fill.dst = word.get();
      fill.width_elements = 1;
      fill.element_size = 4;
      fill.value = value;
      if (other.value()->submit(fill).ok() && other.value()->synchronize().ok())
        calls_done = word[0] == value;
    }
  });
  for (int i = 0; i < 5000 && !calls_done.load(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  bool in_time = calls_done.load();
  spinning.release();
  caller.join();
  return in_time;
}

}  // namespace

// A stream-ordered free (hipFreeAsync) runs on a host lane while a kernel on
// another stream waits for the host. The free must neither wait for that kernel
// nor hold up this thread's CUDA calls (the ones that will release the kernel):
// with the CUDA runtime's cudaFree it would (bench/RESULTS.md, session 12 probe).
TEST_CASE("Cuda_Gpu_LaneFree_DoesNotHoldUpOtherThreads") {
  auto* d = gpu();
  if (!d) return;
  Pinned<unsigned> word(*d, 1);  // before the kernel: pinned allocations may wait for it
  // Allocated before the kernel starts, in sizes CUDA places differently
  // (sub-allocated, a mapping of its own, a large one).
  const size_t sizes[] = {size_t(1) << 20, size_t(32) << 20, size_t(256) << 20};
  void* blocks[3] = {};
  for (int i = 0; i < 3; ++i)
    blocks[i] = value_of(d->allocate(weft::MemoryKind::kDevice, sizes[i], 0));
  SpinningKernel spinning(*d);
  if (!spinning.start()) return;
  weft::Ref<weft::Queue> freeing;
  REQUIRE(host_func_finishes(*d, freeing, [&] {  // it did not wait for the spinning kernel
    for (int i = 0; i < 3; ++i)
      CHECK(d->deallocate(blocks[i], sizes[i], weft::MemoryKind::kDevice).ok());
  }));
  CHECK(other_thread_calls_finish(*d, spinning, word, 7u));
  WEFT_REQUIRE_OK(spinning.queue().synchronize());
  WEFT_REQUIRE_OK(freeing->synchronize());
}

// The same with pinned host memory, which has no stream-ordered free in CUDA:
// cuMemFreeHost on any thread while the kernel spins would hold up this thread's
// calls (session 13 probe), so the lane hands the block to the next ordinary free.
TEST_CASE("Cuda_Gpu_LaneFreeOfPinnedMemory_DoesNotHoldUpOtherThreads") {
  auto* d = gpu();
  if (!d) return;
  Pinned<unsigned> word(*d, 1);
  const size_t bytes = size_t(4) << 20;
  void* block = value_of(d->allocate(weft::MemoryKind::kHostPinned, bytes, 0));
  SpinningKernel spinning(*d);
  if (!spinning.start()) return;
  weft::Ref<weft::Queue> freeing;
  REQUIRE(host_func_finishes(*d, freeing, [&] {
    CHECK(d->deallocate(block, bytes, weft::MemoryKind::kHostPinned).ok());
  }));
  CHECK(other_thread_calls_finish(*d, spinning, word, 9u));
  WEFT_REQUIRE_OK(spinning.queue().synchronize());
  WEFT_REQUIRE_OK(freeing->synchronize());
  // This ordinary free also frees the handed-over block (free_deferred), now
  // that the kernel is done; it must neither fail nor hang.
  void* next = value_of(d->allocate(weft::MemoryKind::kHostPinned, 4096, 0));
  WEFT_REQUIRE_OK(d->deallocate(next, 4096, weft::MemoryKind::kHostPinned));
}

TEST_CASE("Cuda_Gpu_Peer") {
  auto* d = gpu();
  if (!d) return;
  CHECK(value_of(d->can_access_peer(*d)) == false);
  CHECK(d->enable_peer_access(*d).code() == hipErrorPeerAccessUnsupported);
  const auto& gpus = gpu_test::all_gpus();
  if (gpus.size() < 2) {
    WARN("one GPU: peer access between two GPUs not exercised");
    return;
  }
  auto& other = *gpus[1];
  bool can = value_of(d->can_access_peer(other));
  WARN("GPU 0 can access GPU 1: " << can);
  if (!can) return;
  WEFT_REQUIRE_OK(d->enable_peer_access(other));
  CHECK(d->enable_peer_access(other).code() == hipErrorPeerAccessAlreadyEnabled);
  WEFT_REQUIRE_OK(d->disable_peer_access(other));
}
