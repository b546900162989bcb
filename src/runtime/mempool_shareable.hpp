// SPDX-License-Identifier: MIT
// Pools shared between processes (hipMemHandleTypePosixFileDescriptor). On an
// agent whose device memory is host memory (the CPU agent) an exportable
// pool's blocks are pages of one memfd: the pool is exported as a descriptor
// of that memfd, a pointer as (offset, size) in it, and an importing process
// maps the same pages (MAP_SHARED). Other agents would need their driver's
// shareable allocations (cuMemPool with POSIX handles), which the driver
// contract does not offer yet: there, creating such a pool is hipErrorNotSupported.
#pragma once

#include "runtime/mempool.hpp"

namespace weft::mempool {

// Whether `device` can back a shareable pool (and why not).
Status check_shareable(DeviceState& device);
// A new descriptor for the pool's memfd (the caller owns it; close-on-exec).
Result<int> export_fd(MemPool& pool);
// A pool holding the memory behind `fd` (which the caller keeps).
Result<Ref<MemPool>> import_fd(int fd);
Status export_pointer(MemPool& pool, void* ptr, hipMemPoolPtrExportData& out);
Result<void*> import_pointer(MemPool& pool, const hipMemPoolPtrExportData& data);

}  // namespace weft::mempool
