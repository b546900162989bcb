// SPDX-License-Identifier: MIT
// hipImportExternalMemory and friends on an opaque fd: a memfd another API (here the
// test itself) filled, mapped as device buffers that copies, fills and kernels use,
// freed with hipFree; every bad argument is hipErrorInvalidValue (Windows handle types
// hipErrorNotSupported), never a crash.
#include "hip_test.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

// The descriptors here (memfds, eventfds) are what the CPU agent imports; a GPU's
// driver imports only what a graphics API exported (Vulkan), which no test here makes.
bool cpu_agent_or_skip() {
  if (hip_test::props().integrated &&
      std::string(hip_test::props().gcnArchName).find("gfx") == std::string::npos)
    return true;
  hip_test::skip(
      "external memory from memfds and eventfds are the CPU agent's (a GPU imports Vulkan "
      "exports)");
  return false;
}

constexpr size_t kBytes = 64 * 1024;

// A memfd of kBytes with byte i = i * 7 (mod 256), and a view of it.
struct MemoryFile {
  int fd = -1;
  unsigned char* view = nullptr;
  MemoryFile() {
    fd = memfd_create("conformance-external", MFD_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(ftruncate(fd, kBytes) == 0);
    void* p = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    REQUIRE(p != MAP_FAILED);
    view = static_cast<unsigned char*>(p);
    for (size_t i = 0; i < kBytes; ++i) view[i] = static_cast<unsigned char>(i * 7);
  }
  ~MemoryFile() {
    munmap(view, kBytes);
    if (fd >= 0) close(fd);
  }
  // The import owns the descriptor once it succeeded.
  int give() {
    int out = fd;
    fd = -1;
    return out;
  }
};

hipExternalMemoryHandleDesc fd_desc(int fd, unsigned long long size) {
  hipExternalMemoryHandleDesc desc{};
  desc.type = hipExternalMemoryHandleTypeOpaqueFd;
  desc.handle.fd = fd;
  desc.size = size;
  return desc;
}

__global__ void add_one(unsigned char* p, size_t n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = static_cast<unsigned char>(p[i] + 1);
}

}  // namespace

TEST_CASE("Unit_hipImportExternalMemory_Positive_BufferSeesTheFile") {
  if (!cpu_agent_or_skip()) return;
  MemoryFile file;
  hipExternalMemoryHandleDesc desc = fd_desc(file.fd, kBytes);
  hipExternalMemory_t memory = nullptr;
  HIP_CHECK(hipImportExternalMemory(&memory, &desc));
  const int imported_fd = file.give();
  REQUIRE(memory != nullptr);

  // An offset that is not a page multiple: the buffer starts exactly there.
  hipExternalMemoryBufferDesc buffer_desc{};
  buffer_desc.offset = 4096 + 16;
  buffer_desc.size = 8192;
  void* buffer = nullptr;
  HIP_CHECK(hipExternalMemoryGetMappedBuffer(&buffer, memory, &buffer_desc));
  REQUIRE(buffer != nullptr);

  std::vector<unsigned char> host(buffer_desc.size);
  HIP_CHECK(hipMemcpy(host.data(), buffer, host.size(), hipMemcpyDeviceToHost));
  for (size_t i = 0; i < host.size(); ++i) {
    INFO("byte " << i);
    REQUIRE(host[i] == static_cast<unsigned char>((buffer_desc.offset + i) * 7));
  }

  hipPointerAttribute_t attributes{};
  HIP_CHECK(hipPointerGetAttributes(&attributes, buffer));
  REQUIRE(attributes.type == hipMemoryTypeDevice);
  // Bounds: the buffer is an allocation of exactly its size.
  HIP_CHECK_ERROR(hipMemset(buffer, 0, buffer_desc.size + 1), hipErrorInvalidValue);

  // Writes through the buffer reach the file.
  HIP_CHECK(hipMemset(buffer, 0xAB, 100));
  for (size_t i = 0; i < 100; ++i) REQUIRE(file.view[buffer_desc.offset + i] == 0xAB);
  REQUIRE(file.view[buffer_desc.offset + 100] ==
          static_cast<unsigned char>((buffer_desc.offset + 100) * 7));

  if (hip_test::kernels_supported()) {
    hipLaunchKernelGGL(add_one, dim3(2), dim3(64), 0, nullptr, static_cast<unsigned char*>(buffer),
                       size_t{128});
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    REQUIRE(file.view[buffer_desc.offset] == 0xAC);
    REQUIRE(file.view[buffer_desc.offset + 127] ==
            static_cast<unsigned char>((buffer_desc.offset + 127) * 7 + 1));
  }

  // Destroying the memory leaves its buffers valid until hipFree.
  HIP_CHECK(hipDestroyExternalMemory(memory));
  HIP_CHECK(hipMemcpy(host.data(), buffer, 1, hipMemcpyDeviceToHost));
  REQUIRE(host[0] == file.view[buffer_desc.offset]);
  HIP_CHECK_ERROR(hipDestroyExternalMemory(memory), hipErrorInvalidValue);
  HIP_CHECK(hipFree(buffer));
  HIP_CHECK_ERROR(hipFree(buffer), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemset(buffer, 0, 1), hipErrorInvalidValue);
  // The runtime closed the descriptor it took.
  REQUIRE(fcntl(imported_fd, F_GETFD) == -1);
}

TEST_CASE("Unit_hipImportExternalMemory_Positive_TwoBuffersShareBytes") {
  if (!cpu_agent_or_skip()) return;
  MemoryFile file;
  hipExternalMemoryHandleDesc desc = fd_desc(file.fd, kBytes);
  desc.flags = hipExternalMemoryDedicated;
  hipExternalMemory_t memory = nullptr;
  HIP_CHECK(hipImportExternalMemory(&memory, &desc));
  file.give();
  hipExternalMemoryBufferDesc whole{};
  whole.size = kBytes;
  hipExternalMemoryBufferDesc tail{};
  tail.offset = kBytes - 4096;
  tail.size = 4096;
  void* a = nullptr;
  void* b = nullptr;
  HIP_CHECK(hipExternalMemoryGetMappedBuffer(&a, memory, &whole));
  HIP_CHECK(hipExternalMemoryGetMappedBuffer(&b, memory, &tail));
  REQUIRE(a != b);
  HIP_CHECK(hipMemset(b, 0x11, 4096));
  unsigned char last = 0;
  HIP_CHECK(
      hipMemcpy(&last, static_cast<unsigned char*>(a) + kBytes - 1, 1, hipMemcpyDeviceToHost));
  REQUIRE(last == 0x11);
  HIP_CHECK(hipFree(a));
  HIP_CHECK(hipFree(b));
  HIP_CHECK(hipDestroyExternalMemory(memory));
}

TEST_CASE("Unit_hipImportExternalMemory_Negative_Parameters") {
  if (!cpu_agent_or_skip()) return;
  MemoryFile file;
  hipExternalMemory_t memory = nullptr;
  hipExternalMemoryHandleDesc desc = fd_desc(file.fd, kBytes);
  HIP_CHECK_ERROR(hipImportExternalMemory(nullptr, &desc), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipImportExternalMemory(&memory, nullptr), hipErrorInvalidValue);

  hipExternalMemoryHandleDesc bad = desc;
  bad.type = hipExternalMemoryHandleTypeOpaqueWin32;
  HIP_CHECK_ERROR(hipImportExternalMemory(&memory, &bad), hipErrorNotSupported);
  bad = desc;
  bad.type = static_cast<hipExternalMemoryHandleType>(99);
  HIP_CHECK_ERROR(hipImportExternalMemory(&memory, &bad), hipErrorInvalidValue);
  bad = desc;
  bad.size = 0;
  HIP_CHECK_ERROR(hipImportExternalMemory(&memory, &bad), hipErrorInvalidValue);
  bad = desc;
  bad.size = kBytes + 1;  // more than the file holds
  HIP_CHECK_ERROR(hipImportExternalMemory(&memory, &bad), hipErrorInvalidValue);
  bad = desc;
  bad.flags = 0x10;
  HIP_CHECK_ERROR(hipImportExternalMemory(&memory, &bad), hipErrorInvalidValue);
  bad = desc;
  bad.handle.fd = -1;
  HIP_CHECK_ERROR(hipImportExternalMemory(&memory, &bad), hipErrorInvalidValue);
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  bad.handle.fd = pipe_fds[0];
  HIP_CHECK_ERROR(hipImportExternalMemory(&memory, &bad), hipErrorInvalidValue);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  // A failed import leaves the descriptor to the caller.
  REQUIRE(fcntl(file.fd, F_GETFD) != -1);

  HIP_CHECK(hipImportExternalMemory(&memory, &desc));
  file.give();
  hipExternalMemoryBufferDesc buffer_desc{};
  buffer_desc.size = 4096;
  void* buffer = nullptr;
  HIP_CHECK_ERROR(hipExternalMemoryGetMappedBuffer(nullptr, memory, &buffer_desc),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipExternalMemoryGetMappedBuffer(&buffer, memory, nullptr), hipErrorInvalidValue);
  int not_memory = 0;
  HIP_CHECK_ERROR(hipExternalMemoryGetMappedBuffer(&buffer, &not_memory, &buffer_desc),
                  hipErrorInvalidValue);
  hipExternalMemoryBufferDesc over = buffer_desc;
  over.offset = kBytes - 100;
  HIP_CHECK_ERROR(hipExternalMemoryGetMappedBuffer(&buffer, memory, &over), hipErrorInvalidValue);
  over.offset = UINT64_MAX - 10;  // offset + size wraps
  over.size = 4096;
  HIP_CHECK_ERROR(hipExternalMemoryGetMappedBuffer(&buffer, memory, &over), hipErrorInvalidValue);
  over = buffer_desc;
  over.flags = 1;
  HIP_CHECK_ERROR(hipExternalMemoryGetMappedBuffer(&buffer, memory, &over), hipErrorInvalidValue);
  over = buffer_desc;
  over.size = 0;
  HIP_CHECK_ERROR(hipExternalMemoryGetMappedBuffer(&buffer, memory, &over), hipErrorInvalidValue);

  HIP_CHECK(hipDestroyExternalMemory(memory));
  HIP_CHECK_ERROR(hipDestroyExternalMemory(nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipExternalMemoryGetMappedBuffer(&buffer, memory, &buffer_desc),
                  hipErrorInvalidValue);
}
