// SPDX-License-Identifier: MIT
// A test double of ROCr's symbol table for the AMD GPU driver: a CPU agent and
// GPU agents whose calls are recorded instead of run. Queues are real rings in
// host memory; run_gpu() plays the packet processor: it consumes published
// packets in order (respecting barrier-AND dependencies), records each one's
// 64 bytes, stamps and decrements completion signals, runs DMA copies whose
// dependencies are met and fires async signal handlers. Signal waits drive
// run_gpu() themselves unless `manual` is set. Install with FakeHsa; the real
// table comes back when it is destroyed; declare it before any driver object so
// that those are gone first. Single-threaded except where noted.
#ifndef WEFT_TESTS_DRIVERS_HSA_FAKE_HSA_HPP
#define WEFT_TESTS_DRIVERS_HSA_FAKE_HSA_HPP

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "api.hpp"

namespace fake_hsa {

struct GpuConfig {
  std::string isa = "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-";
  std::string product = "AMD Instinct MI210";
  uint32_t cus = 104;
  uint32_t wave = 64;
  uint64_t coarse_bytes = 64ull << 30;
  bool fine_pool = true;
  uint32_t queue_max_packets = 131072;
};

// One packet as the fake packet processor saw it.
struct Packet {
  int queue = 0;       // index into State::queues
  uint64_t index = 0;  // ring index
  std::array<std::byte, 64> bytes{};
  std::vector<std::byte> kernarg;  // dispatches: the kernarg_segment_size bytes at kernarg_address
};

// Order of ring operations, for the publication protocol checks.
struct RingEvent {
  enum Kind { kReserve, kDoorbell } kind;
  int queue = 0;
  uint64_t index = 0;        // reserved index, or the value written to the doorbell
  uint16_t slot_header = 0;  // doorbell: the header of that slot when it rang
};

struct Copy {
  void* dst = nullptr;
  const void* src = nullptr;
  size_t size = 0;
  hsa_agent_t dst_agent{0}, src_agent{0};
  std::vector<hsa_signal_t> deps;
  hsa_signal_t completion{0};
  bool done = false;
};

struct Allocation {
  uint64_t pool = 0;
  size_t size = 0;
  std::vector<uint64_t> allowed;  // agents from hsa_amd_agents_allow_access
};

struct FakeQueue {
  void* block = nullptr;  // amd_queue_t, then the ring
  hsa_queue_t* queue = nullptr;
  void (*callback)(hsa_status_t, hsa_queue_t*, void*) = nullptr;
  void* data = nullptr;
  uint64_t agent = 0;
  bool profiling = false;
  int priority_calls = 0;
  bool dead = false;
};

struct State {
  hsa_status_t init_result = HSA_STATUS_SUCCESS;
  std::vector<GpuConfig> gpus{GpuConfig{}};
  bool manual = false;                            // waits do not drive the GPU
  uint64_t fault_object = 0;                      // a dispatch of this kernel object faults
  hsa_status_t fault_status = hsa_status_t(43);   // HSA_STATUS_ERROR_MEMORY_FAULT
  std::map<std::string, uint32_t> kernarg_sizes;  // symbol → KERNARG_SEGMENT_SIZE answer

  std::vector<FakeQueue> queues;
  std::vector<Packet> packets;
  std::vector<RingEvent> ring_events;
  std::vector<Copy> copies;
  std::map<void*, Allocation> allocations;
  std::vector<void*> freed;
  std::map<void*, size_t> locked;
  std::vector<std::pair<void*, uint32_t>> fills;  // dst, count
  std::vector<std::string> loaded_symbols;
  std::vector<size_t> code_objects;  // sizes given to reader_create_from_memory
  int signals_created = 0;
  int signals_live = 0;
  uint64_t clock = 1000;  // fake timestamp ticks (1 GHz)
};

State& state();

// Host handles of the agents and pools the double reports.
inline constexpr uint64_t kCpuAgent = 1;
inline uint64_t gpu_agent(int i) { return 0x100 + uint64_t(i); }
inline uint64_t coarse_pool(int i) { return 0x1000 + uint64_t(i); }
inline uint64_t fine_pool(int i) { return 0x2000 + uint64_t(i); }
inline constexpr uint64_t kHostFinePool = 0x4000;
inline constexpr uint64_t kKernargPool = 0x4001;
inline constexpr uint64_t kHostCoarsePool = 0x4002;
inline constexpr uint32_t kPrivateApertureHi = 0x1000ABCD;
inline constexpr uint32_t kGroupApertureHi = 0x2000BCDE;

// The kernel object the double reports for `<name>.kd`.
uint64_t kernel_object_of(const std::string& symbol);
int64_t signal_value(hsa_signal_t s);

class FakeHsa {
 public:
  FakeHsa();
  ~FakeHsa();
  FakeHsa(const FakeHsa&) = delete;
  FakeHsa& operator=(const FakeHsa&) = delete;
  const weft::hsa::Api& api() const { return *api_; }

 private:
  weft::hsa::Api* api_;  // static storage (see the constructor)
};

// Plays the packet processor and the DMA engines until nothing more can run.
// Returns the number of packets consumed. Thread-safe (one GPU at a time).
int run_gpu();

}  // namespace fake_hsa

#endif  // WEFT_TESTS_DRIVERS_HSA_FAKE_HSA_HPP
