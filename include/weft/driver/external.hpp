// SPDX-License-Identifier: MIT
// External memory and semaphores (hipImportExternalMemory, hipImportExternalSemaphore):
// memory and synchronization objects another API or process made, handed over as a
// POSIX file descriptor (docs/external-interop.md). Part of the driver contract
// (Device::import_external_memory / import_external_semaphore, both optional).
#pragma once

#include <weft/driver/op.hpp>
#include <weft/driver/ref.hpp>
#include <weft/driver/status.hpp>

#include <cstdint>

namespace weft {

class Queue;

// hipExternalMemoryHandleDesc for an opaque fd: the driver owns `fd` once the
// import succeeds (it closes it when the memory goes), as CUDA and HIP specify;
// on failure the caller keeps it.
struct ExternalMemoryDesc {
  int fd = -1;
  uint64_t bytes = 0;      // the size the exporter gave; > 0
  bool dedicated = false;  // hipExternalMemoryDedicated
};

// One mapped range of external memory: `ptr` is a device address, valid until
// the last reference to `mapping` goes (hipFree of the buffer).
struct ExternalBuffer {
  void* ptr = nullptr;
  Ref<RefCounted> mapping;
};

// Imported memory. Thread-safe. Mappings outlive it (HIP: hipDestroyExternalMemory
// does not free the buffers; hipFree does).
class ExternalMemory : public RefCounted {
 public:
  // [offset, offset + bytes) lies inside the imported size (the core checked).
  virtual Result<ExternalBuffer> map_buffer(uint64_t offset, uint64_t bytes) = 0;
};

enum class ExternalSemaphoreKind {
  kBinary,    // hipExternalSemaphoreHandleTypeOpaqueFd: a signal lets one wait through
  kTimeline,  // hipExternalSemaphoreHandleTypeTimelineSemaphoreFd: a 64-bit value that only grows
};

// Imported semaphore. Thread-safe; the driver owns the descriptor after a
// successful import, as for memory.
class ExternalSemaphore : public RefCounted {
 public:
  // An op that performs the signal (or the wait) when a queue of the agent reaches
  // it, so streams, capture and graphs carry it like any other op. Agents whose
  // semaphores only their vendor library can operate answer hipErrorNotSupported
  // and implement submit() instead.
  virtual Result<Op> op(bool signal, uint64_t value) {
    (void)signal;
    (void)value;
    return Status(hipErrorNotSupported, "this agent's semaphores are operated by its driver only");
  }
  // Enqueues the signal (or wait) on `queue`, one of this agent's queues.
  virtual Status submit(Queue& queue, bool signal, uint64_t value) = 0;
};

}  // namespace weft
