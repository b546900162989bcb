// SPDX-License-Identifier: MIT
// Shareable pools (hipMemHandleTypePosixFileDescriptor): export a pool as a descriptor,
// import it, export and import pointers, within the process and in a child process started
// with posix_spawn (fork + exec) that inherits the descriptor. Agents that cannot share pool
// memory answer hipErrorNotSupported at hipMemPoolCreate and the tests skip.
#include "mempool_test.hpp"
#include "test_files.hpp"

#include <cstdio>
#include <string>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

// Found next to the executable when the tests run outside the build tree.
static const std::string kChildPath = hip_test::helper_file(MEMPOOL_CHILD_PATH);

extern char** environ;

using namespace mempool_test;

namespace {

constexpr int kN = 1024;

__global__ void fill_pattern(int* out, int n, int seed) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = seed * 1000 + i;
}

// A shareable pool, or null after a skip when the agent cannot make one.
hipMemPool_t shareable_pool_or_skip() {
  hipMemPoolProps props = device_props(hipMemHandleTypePosixFileDescriptor);
  hipMemPool_t pool = nullptr;
  hipError_t rc = hipMemPoolCreate(&pool, &props);
  // The device attribute announces exactly what hipMemPoolCreate accepts.
  int handle_types = -1;
  HIP_CHECK(hipDeviceGetAttribute(&handle_types, hipDeviceAttributeMemoryPoolSupportedHandleTypes,
                                  hip_test::device()));
  REQUIRE(((handle_types & hipMemHandleTypePosixFileDescriptor) != 0) == (rc == hipSuccess));
  if (rc == hipErrorNotSupported) {
    hip_test::skip("this agent cannot share pool memory through file descriptors");
    return nullptr;
  }
  HIP_CHECK(rc);
  return pool;
}

void* as_handle(int fd) { return reinterpret_cast<void*>(static_cast<intptr_t>(fd)); }

std::string hex(const hipMemPoolPtrExportData& data) {
  std::string out;
  char byte[3];
  for (unsigned char c : data.reserved) {
    std::snprintf(byte, sizeof byte, "%02x", c);
    out += byte;
  }
  return out;
}

}  // namespace

TEST_CASE("Unit_hipMemPoolExport_Positive_WithinProcess") {
  if (!hip_test::kernels_supported()) return;
  hipMemPool_t pool = shareable_pool_or_skip();
  if (!pool) return;
  hip_test::Stream s;
  int* p = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(reinterpret_cast<void**>(&p), kN * sizeof(int), pool, s.get()));
  HIP_LAUNCH_CHECK(fill_pattern, dim3(kN / 128), dim3(128), 0, s.get(), p, kN, 7);
  HIP_CHECK(hipStreamSynchronize(s.get()));

  int fd = -1;
  HIP_CHECK(hipMemPoolExportToShareableHandle(&fd, pool, hipMemHandleTypePosixFileDescriptor, 0));
  REQUIRE(fd >= 0);
  hipMemPool_t imported = nullptr;
  HIP_CHECK(hipMemPoolImportFromShareableHandle(&imported, as_handle(fd),
                                                hipMemHandleTypePosixFileDescriptor, 0));
  REQUIRE(imported != nullptr);
  REQUIRE(imported != pool);
  hipMemPoolPtrExportData data{};
  HIP_CHECK(hipMemPoolExportPointer(&data, p));
  int* q = nullptr;
  HIP_CHECK(hipMemPoolImportPointer(reinterpret_cast<void**>(&q), imported, &data));
  REQUIRE(q != nullptr);

  // Two addresses, one memory: what one side wrote, the other reads.
  std::vector<int> host(kN, -1);
  HIP_CHECK(hipMemcpy(host.data(), q, kN * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i)
    if (host[i] != 7000 + i) FAIL("imported element " << i << " is " << host[i]);
  HIP_LAUNCH_CHECK(fill_pattern, dim3(kN / 128), dim3(128), 0, s.get(), q, kN, 9);
  HIP_CHECK(hipMemcpyAsync(host.data(), p, kN * sizeof(int), hipMemcpyDeviceToHost, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  for (int i = 0; i < kN; ++i)
    if (host[i] != 9000 + i) FAIL("exported element " << i << " is " << host[i]);

  // An imported pool serves no allocations and cannot become a device's pool.
  void* extra = nullptr;
  HIP_CHECK_ERROR(hipMallocFromPoolAsync(&extra, 64, imported, s.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceSetMemPool(hip_test::device(), imported), hipErrorInvalidValue);
  // Nor can an imported pointer be exported again.
  hipMemPoolPtrExportData again{};
  HIP_CHECK_ERROR(hipMemPoolExportPointer(&again, q), hipErrorInvalidValue);

  HIP_CHECK(hipFreeAsync(q, s.get()));
  HIP_CHECK(hipFreeAsync(p, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  HIP_CHECK(hipMemPoolDestroy(imported));
  HIP_CHECK(hipMemPoolDestroy(pool));
  ::close(fd);
}

TEST_CASE("Unit_hipMemPoolExport_Positive_ChildProcess") {
  if (!hip_test::kernels_supported()) return;
  hipMemPool_t pool = shareable_pool_or_skip();
  if (!pool) return;
  hip_test::Stream s;
  int* p = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(reinterpret_cast<void**>(&p), kN * sizeof(int), pool, s.get()));
  HIP_LAUNCH_CHECK(fill_pattern, dim3(kN / 128), dim3(128), 0, s.get(), p, kN, 3);
  HIP_CHECK(hipStreamSynchronize(s.get()));
  int fd = -1;
  HIP_CHECK(hipMemPoolExportToShareableHandle(&fd, pool, hipMemHandleTypePosixFileDescriptor, 0));
  REQUIRE(::fcntl(fd, F_SETFD, 0) == 0);  // the child inherits it across exec
  hipMemPoolPtrExportData data{};
  HIP_CHECK(hipMemPoolExportPointer(&data, p));

  // The child checks seed 3 and overwrites with seed 5 (mempool_child.cpp).
  std::string fd_text = std::to_string(fd), data_text = hex(data), n_text = std::to_string(kN);
  const char* argv[] = {kChildPath.c_str(), fd_text.c_str(), data_text.c_str(), n_text.c_str(),
                        nullptr};
  pid_t pid = 0;
  REQUIRE(::posix_spawn(&pid, kChildPath.c_str(), nullptr, nullptr, const_cast<char**>(argv),
                        environ) == 0);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  ::close(fd);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  std::vector<int> host(kN, -1);
  HIP_CHECK(hipMemcpy(host.data(), p, kN * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i)
    if (host[i] != 5000 + i) FAIL("element " << i << " is " << host[i] << " after the child wrote");
  HIP_CHECK(hipFreeAsync(p, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  HIP_CHECK(hipMemPoolDestroy(pool));
}

TEST_CASE("Unit_hipMemPoolExport_Negative_Parameters") {
  Pool plain;
  int fd = -1;
  HIP_CHECK_ERROR(
      hipMemPoolExportToShareableHandle(&fd, plain.get(), hipMemHandleTypePosixFileDescriptor, 0),
      hipErrorInvalidValue);  // not created shareable
  HIP_CHECK_ERROR(
      hipMemPoolExportToShareableHandle(&fd, nullptr, hipMemHandleTypePosixFileDescriptor, 0),
      hipErrorInvalidValue);
  hipMemPool_t imported = nullptr;
  HIP_CHECK_ERROR(hipMemPoolImportFromShareableHandle(nullptr, as_handle(0),
                                                      hipMemHandleTypePosixFileDescriptor, 0),
                  hipErrorInvalidValue);
  // A descriptor of some other file is no pool.
  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  REQUIRE(null_fd >= 0);
  HIP_CHECK_ERROR(hipMemPoolImportFromShareableHandle(&imported, as_handle(null_fd),
                                                      hipMemHandleTypePosixFileDescriptor, 0),
                  hipErrorInvalidValue);
  ::close(null_fd);
  HIP_CHECK_ERROR(hipMemPoolImportFromShareableHandle(&imported, as_handle(-5),
                                                      hipMemHandleTypePosixFileDescriptor, 0),
                  hipErrorInvalidValue);
  // Pointers: not from a shareable pool, not from a pool, into a pool that was not imported.
  hip_test::Stream s;
  void* p = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(&p, 256, plain.get(), s.get()));
  hipMemPoolPtrExportData data{};
  HIP_CHECK_ERROR(hipMemPoolExportPointer(&data, p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolExportPointer(nullptr, p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolExportPointer(&data, nullptr), hipErrorInvalidValue);
  hip_test::DeviceBuffer<int> ordinary(16);
  HIP_CHECK_ERROR(hipMemPoolExportPointer(&data, ordinary.get()), hipErrorInvalidValue);
  void* q = nullptr;
  HIP_CHECK_ERROR(hipMemPoolImportPointer(&q, plain.get(), &data), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolImportPointer(nullptr, plain.get(), &data), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolImportPointer(&q, nullptr, &data), hipErrorInvalidValue);
  HIP_CHECK(hipFreeAsync(p, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));

  hipMemPool_t pool = shareable_pool_or_skip();
  if (!pool) return;
  HIP_CHECK_ERROR(
      hipMemPoolExportToShareableHandle(nullptr, pool, hipMemHandleTypePosixFileDescriptor, 0),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolExportToShareableHandle(&fd, pool, hipMemHandleTypeNone, 0),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemPoolExportToShareableHandle(&fd, pool, hipMemHandleTypePosixFileDescriptor, 1),
      hipErrorInvalidValue);
  HIP_CHECK(hipMemPoolExportToShareableHandle(&fd, pool, hipMemHandleTypePosixFileDescriptor, 0));
  HIP_CHECK_ERROR(
      hipMemPoolImportFromShareableHandle(&imported, as_handle(fd), hipMemHandleTypeNone, 0),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolImportFromShareableHandle(&imported, as_handle(fd),
                                                      hipMemHandleTypePosixFileDescriptor, 2),
                  hipErrorInvalidValue);
  HIP_CHECK(hipMemPoolImportFromShareableHandle(&imported, as_handle(fd),
                                                hipMemHandleTypePosixFileDescriptor, 0));
  // Export data that hipMemPoolExportPointer did not write.
  hipMemPoolPtrExportData garbage{};
  garbage.reserved[0] = 0x42;
  HIP_CHECK_ERROR(hipMemPoolImportPointer(&q, imported, &garbage), hipErrorInvalidValue);
  // A pointer of another shareable pool is refused by this pool's importer.
  hipMemPool_t other = shareable_pool_or_skip();
  void* foreign = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(&foreign, 256, other, s.get()));
  HIP_CHECK(hipMemPoolExportPointer(&data, foreign));
  HIP_CHECK_ERROR(hipMemPoolImportPointer(&q, imported, &data), hipErrorInvalidValue);
  HIP_CHECK(hipFreeAsync(foreign, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  HIP_CHECK(hipMemPoolDestroy(other));
  HIP_CHECK(hipMemPoolDestroy(imported));
  HIP_CHECK(hipMemPoolDestroy(pool));
  ::close(fd);
}
