// SPDX-License-Identifier: MIT
// Items 7 and 10 of issue 19: impossible host registrations, managed memory past
// what is free, hipMemGetInfo after a large allocation, hipMemAdvise on memory
// HIP did not allocate.
#include "hip_test.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>

TEST_CASE("Item7_host_register_impossible_ranges") {
  int on_stack[16] = {};
  HIP_CHECK_ERROR(hipHostRegister(on_stack, SIZE_MAX, 0), hipErrorInvalidValue);
  auto heap = std::make_unique<char[]>(4096);
  HIP_CHECK_ERROR(hipHostRegister(heap.get(), size_t{1} << 46, 0), hipErrorInvalidValue);
  // A range with an inaccessible page in the middle, and a read-only one.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(map != MAP_FAILED);
  auto* bytes = static_cast<char*>(map);
  REQUIRE(mprotect(bytes + page, page, PROT_NONE) == 0);
  HIP_CHECK_ERROR(hipHostRegister(bytes, 3 * page, 0), hipErrorInvalidValue);
  REQUIRE(mprotect(bytes + 2 * page, page, PROT_READ) == 0);
  HIP_CHECK_ERROR(hipHostRegister(bytes + 2 * page, page, 0), hipErrorInvalidValue);
  HIP_CHECK(hipHostRegister(bytes + 2 * page, page, hipHostRegisterReadOnly));
  HIP_CHECK(hipHostUnregister(bytes + 2 * page));
  // The real range registers.
  HIP_CHECK(hipHostRegister(bytes, page, 0));
  HIP_CHECK(hipHostUnregister(bytes));
  munmap(bytes, 3 * page);
  HIP_CHECK(hipHostRegister(heap.get(), 4096, 0));
  HIP_CHECK(hipHostUnregister(heap.get()));
}

TEST_CASE("Item10_malloc_managed_more_than_free") {
  size_t free_bytes = 0, total = 0;
  HIP_CHECK(hipMemGetInfo(&free_bytes, &total));
  REQUIRE(free_bytes < SIZE_MAX);
  void* p = nullptr;
  HIP_CHECK_ERROR(hipMallocManaged(&p, free_bytes + 1, hipMemAttachGlobal), hipErrorOutOfMemory);
  CHECK(p == nullptr);
  HIP_CHECK(hipMallocManaged(&p, 4096, hipMemAttachGlobal));
  HIP_CHECK(hipFree(p));
}

TEST_CASE("Item10_mem_get_info_drops_after_large_malloc") {
  if (std::string(hip_test::props().gcnArchName) != "x86_64") {
    hip_test::skip("checks the CPU agent's free-memory figure");
    return;
  }
  constexpr size_t kBytes = size_t{256} << 20;
  size_t before = 0, after = 0, total = 0;
  HIP_CHECK(hipMemGetInfo(&before, &total));
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, kBytes));
  HIP_CHECK(hipMemset(p, 1, kBytes));  // touched: the pages are really in use
  HIP_CHECK(hipMemGetInfo(&after, &total));
  HIP_CHECK(hipFree(p));
  // Other processes may allocate meanwhile (the figure drops further), or free
  // memory: weft's own allocations still count against what it reports.
  CHECK(after + kBytes / 2 <= before);
}

TEST_CASE("Item10_mem_advise_on_mmap_memory") {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(map != MAP_FAILED);
  int device = 0;
  HIP_CHECK(hipGetDevice(&device));
  HIP_CHECK_ERROR(hipMemAdvise(map, 4 * page, hipMemAdviseSetReadMostly, device),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAdvise(map, page, hipMemAdviseSetPreferredLocation, device),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPrefetchAsync(map, page, device, nullptr), hipErrorInvalidValue);
  munmap(map, 4 * page);
}
