// SPDX-License-Identifier: MIT
// The driver contract suite: what every driver must do, checked only through
// include/weft/driver (Driver → Device → Queue / Event / CommandBuffer and the
// Op vocabulary), against the driver this executable was linked with
// (target.hpp). Every data check compares against bytes computed on the host.
// A check the target cannot support prints "SKIPPED: <reason>"; the binary
// exits 77 when every check skipped.
//
// Drivers may run ops asynchronously (a thread, a GPU) or inline inside
// submit() (drivers/null). The checks work for both: nothing blocks the test
// thread waiting for work it has not submitted yet; gates are opened by a
// helper thread instead, so an inline queue simply waits for it inside submit().
#include <weft/driver/device.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "hip_test.hpp"
#include "target.hpp"

using weft::Ref;

namespace {

using contract::target;

template <typename T>
T value_of(weft::Result<T> r) {
  INFO(r.status().message());
  REQUIRE(r.ok());
  return std::move(r).value();
}

#define CONTRACT_OK(expr)                   \
  do {                                      \
    weft::Status contract_status_ = (expr); \
    INFO(contract_status_.message());       \
    REQUIRE(contract_status_.ok());         \
  } while (0)

// The driver and its agents. Made once per process and never destroyed, as the
// core does (Driver::devices() is called once; queue threads may outlive
// everything else).
struct Opened {
  std::unique_ptr<weft::Driver> driver;
  std::vector<Ref<weft::Device>> devices;
};

const Opened* open_driver() {
  auto* made = new Opened;
  made->driver = target().make_driver();
  if (made->driver) made->devices = made->driver->devices();
  return made;
}

const Opened& opened() {
  static const Opened* o = open_driver();
  return *o;
}

struct Agents {
  weft::Driver* driver = nullptr;
  std::vector<Ref<weft::Device>> devices;
  weft::Device& first() const { return *devices.front(); }
};

// Opens the target's driver. False (after skip()) when the target cannot run here.
bool open(Agents& a) {
  const contract::Target& t = target();
  if (!t.unavailable.empty()) {
    hip_test::skip(t.name + ": " + t.unavailable);
    return false;
  }
  const Opened& o = opened();
  REQUIRE(o.driver);
  a.driver = o.driver.get();
  a.devices = o.devices;
  if (a.devices.empty()) {
    INFO("driver " << t.name << ": " << a.driver->status_note());
    if (t.must_have_agents) FAIL("the driver found no agents");
    hip_test::skip(t.name + " has no agents here: " + a.driver->status_note());
    return false;
  }
  return true;
}

// Memory the host can read and write on every driver: host-pinned memory of `device`.
class Pinned {
 public:
  Pinned(weft::Device& device, size_t bytes) : device_(device), bytes_(bytes) {
    ptr_ =
        static_cast<std::byte*>(value_of(device.allocate(weft::MemoryKind::kHostPinned, bytes, 0)));
  }
  ~Pinned() { (void)device_.deallocate(ptr_, bytes_, weft::MemoryKind::kHostPinned); }
  Pinned(const Pinned&) = delete;
  Pinned& operator=(const Pinned&) = delete;
  std::byte* get() const { return ptr_; }
  std::byte& operator[](size_t i) const { return ptr_[i]; }

 private:
  weft::Device& device_;
  size_t bytes_;
  std::byte* ptr_;
};

class DeviceMemory {
 public:
  DeviceMemory(weft::Device& device, size_t bytes) : device_(device), bytes_(bytes) {
    ptr_ = static_cast<std::byte*>(value_of(device.allocate(weft::MemoryKind::kDevice, bytes, 0)));
  }
  ~DeviceMemory() { (void)device_.deallocate(ptr_, bytes_, weft::MemoryKind::kDevice); }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  std::byte* get() const { return ptr_; }

 private:
  weft::Device& device_;
  size_t bytes_;
  std::byte* ptr_;
};

weft::CopyOp copy(void* dst, const void* src, size_t bytes, weft::CopyDirection direction) {
  weft::CopyOp c;
  c.dst = dst;
  c.src = src;
  c.width = bytes;
  c.height = 1;
  c.dst_pitch = bytes;
  c.src_pitch = bytes;
  c.direction = direction;
  return c;
}

weft::FillOp fill(void* dst, uint32_t value, uint8_t element_size, size_t elements) {
  weft::FillOp f;
  f.dst = dst;
  f.value = value;
  f.element_size = element_size;
  f.width_elements = elements;
  f.height = 1;
  f.pitch = elements * element_size;
  return f;
}

// The host's model of a FillOp, for expected bytes.
void fill_on_host(std::vector<std::byte>& bytes, size_t offset, uint32_t value, size_t element_size,
                  size_t elements) {
  for (size_t i = 0; i < elements; ++i)
    for (size_t b = 0; b < element_size; ++b)
      bytes[offset + i * element_size + b] = std::byte((value >> (8 * b)) & 0xff);
}

// Compares byte for byte; on a mismatch reports the first differing offset.
void require_bytes(const std::byte* actual, const std::vector<std::byte>& expected) {
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (actual[i] != expected[i]) {
      if (mismatches++ == 0) first = i;
    }
  }
  INFO("first mismatch at byte " << first << ": got " << int(actual[first]) << ", expected "
                                 << int(expected[first]));
  REQUIRE(mismatches == 0);
}

// Opened by a helper thread after a short while, so that work queued behind it
// is really held back on asynchronous queues, while an inline queue (which
// runs the waiting host function inside submit()) just waits for the thread.
// No assertion depends on the delay.
class Gate {
 public:
  Gate()
      : opener_([this] {
          std::this_thread::sleep_for(std::chrono::milliseconds(30));
          open_.store(true, std::memory_order_release);
        }) {}
  ~Gate() { opener_.join(); }
  void wait() const {
    while (!open_.load(std::memory_order_acquire))
      std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  bool is_open() const { return open_.load(std::memory_order_acquire); }

 private:
  std::atomic<bool> open_{false};
  std::thread opener_;
};

// An event of no driver at all, completed by a helper thread: what another
// driver's event looks like to the driver under test.
class ForeignEvent final : public weft::Event {
 public:
  ForeignEvent()
      : completer_([this] {
          std::this_thread::sleep_for(std::chrono::milliseconds(30));
          done_.store(true, std::memory_order_release);
        }) {}
  ~ForeignEvent() override { completer_.join(); }
  bool is_complete() override { return done_.load(std::memory_order_acquire); }
  weft::Status synchronize() override {
    while (!is_complete()) std::this_thread::sleep_for(std::chrono::microseconds(200));
    return weft::Status();
  }
  weft::Result<float> elapsed_ms_since(weft::Event&) override {
    return weft::Status(hipErrorNotSupported, "a foreign test event has no timing");
  }
  bool ever_recorded() override { return true; }

 private:
  std::atomic<bool> done_{false};
  std::thread completer_;
};

}  // namespace

// ------------------------------------------------------------ driver and agents

TEST_CASE("Contract_Driver_NameAndAgents") {
  Agents a;
  if (!open(a)) return;
  INFO("target " << target().name);
  CHECK_FALSE(a.driver->name().empty());
  CHECK_FALSE(a.driver->status_note().empty());
  for (size_t i = 0; i < a.devices.size(); ++i) {
    REQUIRE(a.devices[i]);
    for (size_t j = 0; j < i; ++j) CHECK(a.devices[i].get() != a.devices[j].get());
  }
}

TEST_CASE("Contract_Device_IdentityIsStable") {
  Agents a;
  if (!open(a)) return;
  std::vector<std::string> uuids;
  for (auto& d : a.devices) {
    CHECK(d->kind() == d->kind());
    CHECK_FALSE(d->target_id().empty());
    CHECK(d->target_id() == d->target_id());
    hipDeviceProp_tR0600 p1, p2;
    std::memset(&p1, 0x5c, sizeof(p1));
    std::memset(&p2, 0xc5, sizeof(p2));
    d->properties(p1);
    d->properties(p2);
    CHECK(std::string(p1.name, strnlen(p1.name, sizeof(p1.name))) ==
          std::string(p2.name, strnlen(p2.name, sizeof(p2.name))));
    CHECK(std::memcmp(p1.uuid.bytes, p2.uuid.bytes, sizeof(p1.uuid.bytes)) == 0);
    CHECK(p1.totalGlobalMem == p2.totalGlobalMem);
    CHECK(p1.pciBusID == p2.pciBusID);
    CHECK(p1.pciDeviceID == p2.pciDeviceID);
    uuids.emplace_back(reinterpret_cast<const char*>(p1.uuid.bytes), sizeof(p1.uuid.bytes));
  }
  // Distinct agents are told apart by their UUIDs (hipDeviceGetUuid).
  for (size_t i = 0; i < uuids.size(); ++i)
    for (size_t j = 0; j < i; ++j) CHECK(uuids[i] != uuids[j]);
}

TEST_CASE("Contract_Device_PropertiesAreSane") {
  Agents a;
  if (!open(a)) return;
  for (auto& d : a.devices) {
    hipDeviceProp_tR0600 p;
    d->properties(p);
    INFO("agent " << d->target_id());
    // Terminated strings, and a name to show.
    REQUIRE(strnlen(p.name, sizeof(p.name)) < sizeof(p.name));
    REQUIRE(strnlen(p.gcnArchName, sizeof(p.gcnArchName)) < sizeof(p.gcnArchName));
    CHECK(p.name[0] != '\0');
    CHECK(p.totalGlobalMem > 0);
    // Limits the core divides by or compares with are never zero.
    CHECK(p.warpSize > 0);
    CHECK((p.warpSize & (p.warpSize - 1)) == 0);
    CHECK(p.maxThreadsPerBlock > 0);
    for (int i = 0; i < 3; ++i) {
      CHECK(p.maxThreadsDim[i] > 0);
      CHECK(p.maxThreadsDim[i] <= p.maxThreadsPerBlock);
      CHECK(p.maxGridSize[i] > 0);
    }
    CHECK(p.maxThreadsPerMultiProcessor >= p.maxThreadsPerBlock);
    CHECK(p.sharedMemPerBlock > 0);
    CHECK(p.multiProcessorCount > 0);
    CHECK(p.major >= 0);
    CHECK(p.minor >= 0);
    weft::MemoryInfo m = d->memory_info();
    CHECK(m.total_bytes > 0);
    CHECK(m.free_bytes <= m.total_bytes);
  }
}

// ------------------------------------------------------------ memory

TEST_CASE("Contract_Memory_AllocateAndFreeEveryKind") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  for (auto kind :
       {weft::MemoryKind::kDevice, weft::MemoryKind::kHostPinned, weft::MemoryKind::kManaged}) {
    INFO("memory kind " << int(kind));
    constexpr size_t kBytes = 12345;
    void* p = value_of(d.allocate(kind, kBytes, 0));
    REQUIRE(p != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(p) % 256 == 0);  // hipMalloc's promise
    // The host may touch pinned and managed memory, and device memory where the caps say so.
    if (kind != weft::MemoryKind::kDevice || d.caps().host_can_access_device_memory) {
      auto* bytes = static_cast<unsigned char*>(p);
      bytes[0] = 1;
      bytes[kBytes - 1] = 2;
      CHECK(bytes[0] + bytes[kBytes - 1] == 3);
    }
    CONTRACT_OK(d.deallocate(p, kBytes, kind));
  }
}

TEST_CASE("Contract_Memory_ZeroBytesNeverCrashes") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  // The core never asks for 0 bytes (hipMalloc(0) answers null itself), but a
  // driver must survive it: a pointer deallocate() takes back, or an error.
  for (auto kind : {weft::MemoryKind::kDevice, weft::MemoryKind::kHostPinned}) {
    auto r = d.allocate(kind, 0, 0);
    if (r.ok()) {
      CONTRACT_OK(d.deallocate(r.value(), 0, kind));
    } else {
      CHECK(r.status().code() != hipSuccess);
      CHECK_FALSE(r.status().message().empty());
    }
  }
}

TEST_CASE("Contract_Memory_HugeRequestIsAnError") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  const size_t total = d.memory_info().total_bytes;
  std::vector<size_t> sizes = {SIZE_MAX, SIZE_MAX / 2 + 1};
  if (total < SIZE_MAX / 4) sizes.push_back(total * 4);
  for (auto kind : {weft::MemoryKind::kDevice, weft::MemoryKind::kHostPinned}) {
    for (size_t bytes : sizes) {
      INFO("memory kind " << int(kind) << ", " << bytes << " bytes");
      auto r = d.allocate(kind, bytes, 0);
      if (r.ok()) (void)d.deallocate(r.value(), bytes, kind);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == hipErrorOutOfMemory);
      CHECK_FALSE(r.status().message().empty());
    }
  }
}

TEST_CASE("Contract_Memory_RegisterHostGivesAnAgentAddress") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  std::vector<std::byte> host(8192);
  void* agent_address = value_of(d.register_host(host.data(), host.size(), 0));
  CHECK(agent_address != nullptr);
  CONTRACT_OK(d.unregister_host(host.data()));
}

// ------------------------------------------------------------ queues

TEST_CASE("Contract_Queue_FreshQueueSynchronizesAndIsIdle") {
  Agents a;
  if (!open(a)) return;
  auto q = value_of(a.first().create_queue({}));
  CONTRACT_OK(q->synchronize());
  CHECK(q->is_idle());
  auto urgent = value_of(a.first().create_queue(weft::QueueOptions{-1}));
  CONTRACT_OK(urgent->synchronize());
}

// Copy in, fill three ranges with 1-, 2- and 4-byte elements, copy within the
// device, copy back: each op sees every earlier op's bytes, so any reordering
// changes the result.
TEST_CASE("Contract_Queue_InOrderCopyFillCopyBack") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  constexpr size_t kBytes = 64 * 1024;
  Pinned src(d, kBytes), out(d, kBytes);
  DeviceMemory dev(d, kBytes);
  std::vector<std::byte> expected(kBytes);
  for (size_t i = 0; i < kBytes; ++i) expected[i] = src[i] = std::byte((i * 131 + 7) & 0xff);
  std::memset(out.get(), 0xee, kBytes);
  auto q = value_of(d.create_queue({}));

  CONTRACT_OK(q->submit(copy(dev.get(), src.get(), kBytes, weft::CopyDirection::kHostToDevice)));
  CONTRACT_OK(q->submit(fill(dev.get() + 1000, 0x5a, 1, 5000)));
  fill_on_host(expected, 1000, 0x5a, 1, 5000);
  CONTRACT_OK(q->submit(fill(dev.get() + 8192, 0xbeef, 2, 1000)));
  fill_on_host(expected, 8192, 0xbeef, 2, 1000);
  CONTRACT_OK(q->submit(fill(dev.get() + 16384, 0xa1b2c3d4u, 4, 1000)));
  fill_on_host(expected, 16384, 0xa1b2c3d4u, 4, 1000);
  // Reads the first fill: must run after it.
  CONTRACT_OK(q->submit(
      copy(dev.get() + 40000, dev.get() + 2000, 4096, weft::CopyDirection::kDeviceToDevice)));
  std::memcpy(expected.data() + 40000, expected.data() + 2000, 4096);
  // Overwrites part of what the copy above read: must run after it.
  CONTRACT_OK(q->submit(fill(dev.get() + 2000, 0x11, 1, 100)));
  fill_on_host(expected, 2000, 0x11, 1, 100);
  CONTRACT_OK(q->submit(copy(out.get(), dev.get(), kBytes, weft::CopyDirection::kDeviceToHost)));
  CONTRACT_OK(q->synchronize());
  CHECK(q->is_idle());
  require_bytes(out.get(), expected);
}

TEST_CASE("Contract_Queue_PitchedCopyAndFill") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  constexpr size_t kRows = 9, kWidth = 100, kSrcPitch = 112, kDevPitch = 128;
  Pinned src(d, kRows * kSrcPitch), out(d, kRows * kDevPitch);
  DeviceMemory dev(d, kRows * kDevPitch);
  for (size_t i = 0; i < kRows * kSrcPitch; ++i) src[i] = std::byte((i * 7 + 3) & 0xff);
  std::memset(out.get(), 0, kRows * kDevPitch);
  auto q = value_of(d.create_queue({}));
  // Known bytes everywhere first, so the gaps between rows are checked too.
  CONTRACT_OK(q->submit(fill(dev.get(), 0xcd, 1, kRows * kDevPitch)));
  weft::CopyOp in;
  in.dst = dev.get();
  in.src = src.get();
  in.width = kWidth;
  in.height = kRows;
  in.dst_pitch = kDevPitch;
  in.src_pitch = kSrcPitch;
  in.direction = weft::CopyDirection::kHostToDevice;
  CONTRACT_OK(q->submit(in));
  weft::FillOp f;  // a 2-byte column band over rows 2..6
  f.dst = dev.get() + 2 * kDevPitch + 10;
  f.value = 0x1234;
  f.element_size = 2;
  f.width_elements = 20;
  f.height = 5;
  f.pitch = kDevPitch;
  CONTRACT_OK(q->submit(f));
  CONTRACT_OK(
      q->submit(copy(out.get(), dev.get(), kRows * kDevPitch, weft::CopyDirection::kDeviceToHost)));
  CONTRACT_OK(q->synchronize());

  std::vector<std::byte> expected(kRows * kDevPitch, std::byte{0xcd});
  for (size_t r = 0; r < kRows; ++r)
    std::memcpy(expected.data() + r * kDevPitch, src.get() + r * kSrcPitch, kWidth);
  for (size_t r = 2; r < 7; ++r) fill_on_host(expected, r * kDevPitch + 10, 0x1234, 2, 20);
  require_bytes(out.get(), expected);
}

TEST_CASE("Contract_Queue_HostFunctionsRunInOrderAfterEarlierWork") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  constexpr size_t kBytes = 4096;
  Pinned ones(d, kBytes), twos(d, kBytes), target_bytes(d, kBytes);
  std::memset(ones.get(), 1, kBytes);
  std::memset(twos.get(), 2, kBytes);
  std::memset(target_bytes.get(), 0, kBytes);
  auto q = value_of(d.create_queue({}));
  std::mutex mutex;
  std::vector<int> order;
  std::vector<int> seen;  // the first and last byte of the target, as each function saw them
  auto snapshot = [&] {
    std::lock_guard lock(mutex);
    seen.push_back(int(target_bytes[0]) * 10 + int(target_bytes[kBytes - 1]));
  };
  CONTRACT_OK(
      q->submit(copy(target_bytes.get(), ones.get(), kBytes, weft::CopyDirection::kHostToHost)));
  CONTRACT_OK(q->submit(weft::HostFuncOp{snapshot}));
  CONTRACT_OK(
      q->submit(copy(target_bytes.get(), twos.get(), kBytes, weft::CopyDirection::kHostToHost)));
  CONTRACT_OK(q->submit(weft::HostFuncOp{snapshot}));
  constexpr int kFunctions = 200;
  for (int i = 0; i < kFunctions; ++i)
    CONTRACT_OK(q->submit(weft::HostFuncOp{[&, i] {
      std::lock_guard lock(mutex);
      order.push_back(i);
    }}));
  CONTRACT_OK(q->synchronize());
  std::lock_guard lock(mutex);
  CHECK(seen == std::vector<int>{11, 22});
  REQUIRE(order.size() == size_t(kFunctions));
  for (int i = 0; i < kFunctions; ++i) REQUIRE(order[size_t(i)] == i);
}

// Queues are thread-safe: ops submitted from several threads at once all run,
// each thread's in its own order.
TEST_CASE("Contract_Queue_ConcurrentSubmitsKeepEachThreadsOrder") {
  Agents a;
  if (!open(a)) return;
  auto q = value_of(a.first().create_queue({}));
  constexpr int kThreads = 4, kEach = 100;
  std::mutex mutex;
  std::vector<std::vector<int>> ran(kThreads);
  std::atomic<int> failures{0};  // Catch2 assertions are not thread-safe: count instead
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        weft::Status s = q->submit(weft::HostFuncOp{[&, t, i] {
          std::lock_guard lock(mutex);
          ran[size_t(t)].push_back(i);
        }});
        if (!s.ok()) failures.fetch_add(1);
      }
    });
  for (auto& th : threads) th.join();
  CONTRACT_OK(q->synchronize());
  CHECK(failures.load() == 0);
  std::lock_guard lock(mutex);
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    REQUIRE(ran[size_t(t)].size() == size_t(kEach));
    for (int i = 0; i < kEach; ++i) REQUIRE(ran[size_t(t)][size_t(i)] == i);
  }
}

TEST_CASE("Contract_Queue_HostKernelRunsOrIsRefused") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  struct Args {
    uint32_t* out;
  };
  // A single-source kernel in the engine's loop mode: the entry runs every
  // thread of its block range itself (include/hip/weft/kernel_abi.h). It uses
  // no barrier, so it never needs the engine's fibers.
  weftHostKernel k{};
  k.abiVersion = WEFT_KERNEL_ABI_VERSION;
  k.name = "contract_iota";
  k.entry = [](weftKernelContext* ctx, void* raw) {
    auto* args = static_cast<Args*>(raw);
    const uint32_t threads = ctx->blockDim.x;
    for (uint64_t b = ctx->blockBegin; b < ctx->blockEnd; ++b)
      for (uint32_t t = 0; t < threads; ++t)
        args->out[b * threads + t] = uint32_t(b * threads + t) * 3u + 1u;
  };
  k.destroyArgs = [](void* raw) { delete static_cast<Args*>(raw); };
  constexpr uint32_t kBlocks = 8, kThreads = 64, kCount = kBlocks * kThreads;
  Pinned out(d, kCount * sizeof(uint32_t));
  std::memset(out.get(), 0, kCount * sizeof(uint32_t));
  k.args = new Args{reinterpret_cast<uint32_t*>(out.get())};
  weft::DispatchOp op;
  op.host_kernel = weft::make_ref<weft::HostKernel>(k);
  op.dims.grid = dim3(kBlocks, 1, 1);
  op.dims.block = dim3(kThreads, 1, 1);
  auto q = value_of(d.create_queue({}));
  weft::Status submitted = q->submit(op);
  weft::Status synced = q->synchronize();
  if (d.caps().runs_host_kernels) {
    CONTRACT_OK(submitted);
    CONTRACT_OK(synced);
    auto* values = reinterpret_cast<uint32_t*>(out.get());
    for (uint32_t i = 0; i < kCount; ++i) REQUIRE(values[i] == i * 3u + 1u);
  } else {
    // kernel_abi.h: agents that cannot run host code refuse with hipErrorNoBinaryForGpu,
    // at submit() or (for a driver that finds out later) at synchronize().
    INFO("submit: " << submitted.message() << "; synchronize: " << synced.message());
    CHECK((submitted.code() == hipErrorNoBinaryForGpu || synced.code() == hipErrorNoBinaryForGpu));
    auto* values = reinterpret_cast<uint32_t*>(out.get());
    CHECK(values[0] == 0u);
  }
}

TEST_CASE("Contract_Queue_AsyncErrorIsSticky") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  if (!target().failing_op) {
    hip_test::skip(target().name + " has no way to make a queue fail asynchronously");
    return;
  }
  auto failing = target().failing_op(d);
  if (!failing.ok()) {
    hip_test::skip(target().name + ": " + failing.status().message());
    return;
  }
  contract::FailingOp f = std::move(failing).value();
  // A driver of its own: a GPU fault may poison the whole device, and the other
  // checks share theirs. Never destroyed, like the shared one.
  static const Opened* own = open_driver();
  REQUIRE_FALSE(own->devices.empty());
  weft::Device& faulted = *own->devices.front();
  auto failing_again = target().failing_op(faulted);
  REQUIRE(failing_again.ok());
  f = std::move(failing_again).value();
  auto q = value_of(faulted.create_queue({}));
  weft::Status submitted = q->submit(std::move(f.op));
  INFO("submit: " << submitted.message());
  REQUIRE(submitted.ok());  // asynchronous: the failure shows up later
  weft::Status first = q->synchronize();
  INFO("first synchronize: " << first.message());
  CHECK(first.code() == f.error);
  CHECK_FALSE(first.message().empty());
  // Sticky: it keeps returning the first error, and later work does not clear it.
  CHECK(q->synchronize().code() == f.error);
  Pinned scratch(faulted, 64);
  (void)q->submit(fill(scratch.get(), 0, 1, 64));
  CHECK(q->synchronize().code() == f.error);
  CHECK(q->is_idle());
  // Other queues of the device are unaffected unless the driver's faults are device-wide.
  auto other = value_of(faulted.create_queue({}));
  weft::Status other_status = other->synchronize();
  CHECK((other_status.ok() || other_status.code() == f.error));
}

// ------------------------------------------------------------ events

TEST_CASE("Contract_Event_FreshEventIsCompleteAndUnrecorded") {
  Agents a;
  if (!open(a)) return;
  auto e = value_of(a.first().create_event({}));
  CHECK(e->is_complete());
  CHECK_FALSE(e->ever_recorded());
  CONTRACT_OK(e->synchronize());
  auto other = value_of(a.first().create_event({}));
  auto elapsed = e->elapsed_ms_since(*other);
  REQUIRE_FALSE(elapsed.ok());
  CHECK(elapsed.status().code() == hipErrorInvalidHandle);
}

TEST_CASE("Contract_Event_RecordCompletesAfterEarlierWork") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  constexpr size_t kBytes = 32 * 1024;
  Pinned src(d, kBytes), dst(d, kBytes);
  std::vector<std::byte> expected(kBytes);
  for (size_t i = 0; i < kBytes; ++i) expected[i] = src[i] = std::byte((i * 5 + 1) & 0xff);
  std::memset(dst.get(), 0, kBytes);
  auto q = value_of(d.create_queue({}));
  auto e = value_of(d.create_event({}));
  CONTRACT_OK(q->submit(copy(dst.get(), src.get(), kBytes, weft::CopyDirection::kHostToHost)));
  CONTRACT_OK(q->submit(weft::EventRecordOp{e}));
  CHECK(e->ever_recorded());
  // The event alone (no queue synchronize) says the copy before it is done.
  CONTRACT_OK(e->synchronize());
  CHECK(e->is_complete());
  require_bytes(dst.get(), expected);
  CONTRACT_OK(q->synchronize());
}

TEST_CASE("Contract_Event_ElapsedTimeBetweenRecords") {
  Agents a;
  if (!open(a)) return;
  if (!target().no_elapsed_time.empty()) {
    hip_test::skip(target().name + ": " + target().no_elapsed_time);
    return;
  }
  weft::Device& d = a.first();
  Pinned scratch(d, 1 << 20);
  auto q = value_of(d.create_queue({}));
  auto start = value_of(d.create_event({}));
  auto end = value_of(d.create_event({}));
  CONTRACT_OK(q->submit(weft::EventRecordOp{start}));
  CONTRACT_OK(q->submit(fill(scratch.get(), 7, 1, 1 << 20)));
  CONTRACT_OK(q->submit(weft::EventRecordOp{end}));
  CONTRACT_OK(end->synchronize());
  CONTRACT_OK(start->synchronize());
  float ms = value_of(end->elapsed_ms_since(*start));
  CHECK(std::isfinite(ms));
  CHECK(ms >= 0.0f);
}

TEST_CASE("Contract_Event_TimingDisabledIsRefused") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  auto q = value_of(d.create_queue({}));
  weft::EventOptions untimed;
  untimed.timing = false;
  auto start = value_of(d.create_event(untimed));
  auto end = value_of(d.create_event(untimed));
  CONTRACT_OK(q->submit(weft::EventRecordOp{start}));
  CONTRACT_OK(q->submit(weft::EventRecordOp{end}));
  CONTRACT_OK(q->synchronize());
  CHECK(end->is_complete());
  auto elapsed = end->elapsed_ms_since(*start);
  REQUIRE_FALSE(elapsed.ok());
  CHECK(elapsed.status().code() == hipErrorInvalidHandle);
}

// Queue B waits for an event that queue A records behind a gate: B's copy must
// see A's copy.
void check_cross_queue_wait(weft::Device& da, weft::Device& db) {
  constexpr size_t kBytes = 16 * 1024;
  Pinned src(da, kBytes), out(db, kBytes);
  DeviceMemory x(da, kBytes);
  std::memset(src.get(), 0x42, kBytes);
  std::memset(out.get(), 0, kBytes);
  auto qa = value_of(da.create_queue({}));
  auto qb = value_of(db.create_queue({}));
  auto e = value_of(da.create_event({}));
  CONTRACT_OK(qa->submit(fill(x.get(), 0, 1, kBytes)));
  CONTRACT_OK(qa->synchronize());
  std::atomic<bool> gate_was_open{false};
  {
    Gate gate;
    CONTRACT_OK(qa->submit(weft::HostFuncOp{[&] {
      gate.wait();
      gate_was_open.store(true);
    }}));
    CONTRACT_OK(qa->submit(copy(x.get(), src.get(), kBytes, weft::CopyDirection::kHostToDevice)));
    CONTRACT_OK(qa->submit(weft::EventRecordOp{e}));
    CONTRACT_OK(qb->submit(weft::EventWaitOp{e}));
    CONTRACT_OK(qb->submit(copy(out.get(), x.get(), kBytes, weft::CopyDirection::kDeviceToHost)));
    CONTRACT_OK(qb->synchronize());
    CHECK(gate_was_open.load());
    CONTRACT_OK(qa->synchronize());
  }
  require_bytes(out.get(), std::vector<std::byte>(kBytes, std::byte{0x42}));
}

TEST_CASE("Contract_Event_CrossQueueWait") {
  Agents a;
  if (!open(a)) return;
  check_cross_queue_wait(a.first(), a.first());
}

TEST_CASE("Contract_Event_CrossDeviceWait") {
  Agents a;
  if (!open(a)) return;
  if (a.devices.size() < 2) {
    hip_test::skip(target().name + " has one agent here; the cross-device wait needs two");
    return;
  }
  check_cross_queue_wait(*a.devices[0], *a.devices[1]);
}

TEST_CASE("Contract_Event_WaitOnAnotherDriversEvent") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  auto q = value_of(d.create_queue({}));
  auto foreign = weft::make_ref<ForeignEvent>();
  std::atomic<int> saw_complete{-1};
  CONTRACT_OK(q->submit(weft::EventWaitOp{Ref<weft::Event>(foreign)}));
  CONTRACT_OK(
      q->submit(weft::HostFuncOp{[&] { saw_complete.store(foreign->is_complete() ? 1 : 0); }}));
  CONTRACT_OK(q->synchronize());
  CHECK(saw_complete.load() == 1);
}

// ------------------------------------------------------------ optional methods

TEST_CASE("Contract_Optional_MethodsAnswerOrSayNotSupported") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  auto ok_or_not_supported = [](const weft::Status& s, const char* what) {
    INFO(what << ": " << s.message());
    CHECK((s.ok() || s.code() == hipErrorNotSupported));
  };
  // An attribute no hipDeviceProp_t field answers.
  ok_or_not_supported(d.attribute(hipDeviceAttributeWallClockRate).status(), "attribute");
  ok_or_not_supported(d.create_command_buffer().status(), "create_command_buffer");
  for (auto& peer : a.devices)
    ok_or_not_supported(d.can_access_peer(*peer).status(), "can_access_peer");
  {
    DeviceMemory m(d, 4096);
    auto handle = d.ipc_export_memory(m.get());
    ok_or_not_supported(handle.status(), "ipc_export_memory");
  }
  {
    weft::EventOptions o;
    o.timing = false;
    o.interprocess = true;
    auto e = d.create_event(o);
    if (e.ok()) ok_or_not_supported(d.ipc_export_event(*e.value()).status(), "ipc_export_event");
    else ok_or_not_supported(e.status(), "create_event(interprocess)");
  }
  // Bad input to an optional method is an error, whichever.
  hipIpcMemHandle_t zero_memory{};
  auto mapped = d.ipc_open_memory(zero_memory, 0);
  if (mapped.ok()) (void)d.ipc_close_memory(mapped.value().ptr);
  CHECK_FALSE(mapped.ok());
  hipIpcEventHandle_t zero_event{};
  CHECK_FALSE(d.ipc_open_event(zero_event).ok());
  // An image of nothing is never a module.
  auto module = d.load_module({});
  REQUIRE_FALSE(module.ok());
  CHECK(module.status().code() != hipSuccess);
  // The stack size is only a hint: whatever is set, reading it back never fails.
  (void)d.set_thread_stack_bytes(32 * 1024);
  (void)d.thread_stack_bytes();
}

// ------------------------------------------------------------ command buffers

TEST_CASE("Contract_CommandBuffer_ReplaysInOrder") {
  Agents a;
  if (!open(a)) return;
  weft::Device& d = a.first();
  auto created = d.create_command_buffer();
  if (!created.ok()) {
    REQUIRE(created.status().code() == hipErrorNotSupported);
    hip_test::skip(target().name + " has no command buffers: " + created.status().message());
    return;
  }
  Ref<weft::CommandBuffer> cb = std::move(created).value();
  constexpr size_t kBytes = 8192;
  Pinned src(d, kBytes), out(d, kBytes);
  DeviceMemory dev(d, kBytes);
  for (size_t i = 0; i < kBytes; ++i) src[i] = std::byte(i & 0xff);
  CONTRACT_OK(cb->record(copy(dev.get(), src.get(), kBytes, weft::CopyDirection::kHostToDevice)));
  CONTRACT_OK(cb->record(fill(dev.get() + 100, 0x77, 1, 1000)));
  CONTRACT_OK(cb->record(copy(out.get(), dev.get(), kBytes, weft::CopyDirection::kDeviceToHost)));
  CONTRACT_OK(cb->finalize());
  auto q = value_of(d.create_queue({}));
  // Replays read memory as it is when they run: change the source between them.
  for (int replay = 0; replay < 2; ++replay) {
    INFO("replay " << replay);
    for (size_t i = 0; i < kBytes; ++i) src[i] = std::byte((i + size_t(replay) * 3) & 0xff);
    std::memset(out.get(), 0, kBytes);
    CONTRACT_OK(cb->submit(*q));
    CONTRACT_OK(q->synchronize());
    std::vector<std::byte> expected(kBytes);
    for (size_t i = 0; i < kBytes; ++i) expected[i] = std::byte((i + size_t(replay) * 3) & 0xff);
    fill_on_host(expected, 100, 0x77, 1, 1000);
    require_bytes(out.get(), expected);
  }
  // Patching is optional: it works or says hipErrorNotSupported.
  weft::Status disabled = cb->set_enabled(1, false);
  INFO("set_enabled: " << disabled.message());
  CHECK((disabled.ok() || disabled.code() == hipErrorNotSupported));
  if (disabled.ok()) {
    std::memset(out.get(), 0, kBytes);
    CONTRACT_OK(cb->submit(*q));
    CONTRACT_OK(q->synchronize());
    std::vector<std::byte> expected(kBytes);
    for (size_t i = 0; i < kBytes; ++i) expected[i] = src[i];
    require_bytes(out.get(), expected);  // the fill no longer runs
  }
}
