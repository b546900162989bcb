// SPDX-License-Identifier: MIT
// Device: identity, properties, memory and object factories of one agent.
// "Contract:" notes say what every driver's Device must guarantee.
#include "device.hpp"

#include "event.hpp"
#include "queue.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace weft::null {
namespace {

// What HIP promises for hipMalloc, and more than any element type needs.
constexpr size_t kAllocationAlignment = 256;

size_t host_physical_memory() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_bytes = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_bytes <= 0) return size_t(1) << 30;  // unknown: claim 1 GiB
  return static_cast<size_t>(pages) * static_cast<size_t>(page_bytes);
}

}  // namespace

NullDevice::NullDevice(int ordinal) : ordinal_(ordinal), total_bytes_(host_physical_memory()) {
  // Contract: capabilities are data the core reads instead of checking driver
  // types. This agent runs no kernels (not even single-source ones: those need
  // the CPU engine's runtime, drivers/cpu); its memory is plain host memory;
  // its events carry host timestamps.
  caps_.runs_host_kernels = false;
  caps_.host_can_access_device_memory = true;
  caps_.timing_events = true;
  caps_.owns_unlisted_device_memory = false;  // every allocation is in the pointer table
}

// Contract: fill every field the agent can answer truthfully and leave the rest
// zero. Limits the core divides by or compares against (warp size, threads per
// block, grid size) must be nonzero even on an agent that runs no kernels, so
// launch checks fail with a launch error rather than a division by zero.
void NullDevice::properties(hipDeviceProp_tR0600& p) const {
  std::memset(&p, 0, sizeof(p));
  std::snprintf(p.name, sizeof(p.name), "weft null agent %d", ordinal_);
  std::snprintf(p.gcnArchName, sizeof(p.gcnArchName), "%s", target_id().c_str());
  char uuid[sizeof(p.uuid.bytes) + 1];
  std::snprintf(uuid, sizeof(uuid), "weft-null-agt%03u", static_cast<unsigned>(ordinal_) % 1000u);
  std::memcpy(p.uuid.bytes, uuid, sizeof(p.uuid.bytes));
  p.totalGlobalMem = total_bytes_;
  p.warpSize = 32;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsPerMultiProcessor = 1024;
  p.maxThreadsDim[0] = p.maxThreadsDim[1] = 1024;
  p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = 0x7fffffff;
  p.maxGridSize[1] = p.maxGridSize[2] = 65535;
  p.sharedMemPerBlock = 64 * 1024;
  p.totalConstMem = 64 * 1024;
  p.memPitch = SIZE_MAX / 2;
  p.textureAlignment = kAllocationAlignment;
  p.texturePitchAlignment = kAllocationAlignment;
  p.multiProcessorCount = 1;
  // No compute capability exists for this agent; 1.0 keeps version checks meaningful.
  p.major = 1;
  p.minor = 0;
  // Host memory throughout: the host maps and reaches all of it directly.
  p.integrated = 1;
  p.canMapHostMemory = 1;
  p.unifiedAddressing = 1;
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.directManagedMemAccessFromHost = 1;
  p.hostRegisterSupported = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  p.pciDeviceID = ordinal_;
}

// Contract: total is what the agent has; free never exceeds total and goes down
// as allocate() hands memory out.
MemoryInfo NullDevice::memory_info() const {
  MemoryInfo info;
  info.total_bytes = total_bytes_;
  size_t allocated = allocated_bytes_.load(std::memory_order_relaxed);
  info.free_bytes = allocated < total_bytes_ ? total_bytes_ - allocated : 0;
  return info;
}

// Contract: returns memory of `kind` (every kind is host memory here), aligned
// to at least 256 bytes, or hipErrorOutOfMemory with a reason; a request
// larger than the agent (SIZE_MAX) is an error, never a crash. The core never
// asks for 0 bytes (hipMalloc(0) returns null itself); this driver still gives
// a unique pointer for it, which deallocate() accepts. `flags` are the HIP
// allocation flags of that kind (hipHostMalloc*, hipMemAttach*): host memory
// is already coherent, mapped and portable, so none changes anything here.
Result<void*> NullDevice::allocate(MemoryKind, size_t bytes, unsigned) {
  MemoryInfo info = memory_info();
  if (bytes > info.free_bytes)
    return Status(hipErrorOutOfMemory, "null agent: " + std::to_string(bytes) + " bytes asked, " +
                                           std::to_string(info.free_bytes) + " free");
  // aligned_alloc wants a nonzero multiple of the alignment (no overflow:
  // `bytes` is at most the host's memory).
  size_t rounded =
      bytes == 0 ? kAllocationAlignment
                 : (bytes + kAllocationAlignment - 1) / kAllocationAlignment * kAllocationAlignment;
  void* ptr = std::aligned_alloc(kAllocationAlignment, rounded);
  if (!ptr)
    return Status(hipErrorOutOfMemory,
                  "null agent: aligned_alloc of " + std::to_string(rounded) + " bytes failed");
  allocated_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  return ptr;
}

// Contract: `ptr` came from this device's allocate() with this `bytes` and
// `kind` (the core checks that); after the call it is invalid. The core
// synchronizes the device first where HIP requires it (hipFree), so the driver
// need not wait for queued work here.
Status NullDevice::deallocate(void* ptr, size_t bytes, MemoryKind) {
  if (!ptr) return Status();
  std::free(ptr);
  allocated_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
  return Status();
}

// Contract: makes [ptr, ptr + bytes) of user memory reachable by the agent and
// returns the address the agent uses for it. Host memory is already the
// agent's memory: the address is the same.
Result<void*> NullDevice::register_host(void* ptr, size_t, unsigned) { return ptr; }

Status NullDevice::unregister_host(void*) { return Status(); }

// Contract: a new, independent, in-order queue. Priorities are hints; an agent
// without them ignores the option.
Result<Ref<Queue>> NullDevice::create_queue(const QueueOptions&) {
  return Ref<Queue>(make_ref<NullQueue>());
}

// Contract: a new event, complete until first recorded.
Result<Ref<Event>> NullDevice::create_event(const EventOptions& options) {
  return Ref<Event>(make_ref<NullEvent>(options));
}

}  // namespace weft::null
