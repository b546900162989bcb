// SPDX-License-Identifier: MIT
// hipIpcGetMemHandle / OpenMemHandle / CloseMemHandle and hipIpcGetEventHandle /
// OpenEventHandle (docs/ipc.md): another process (ipc_child, started with fork + exec)
// maps the same device memory and shares the event's records; bad handles and
// pointers are hipErrorInvalidValue (a plain event hipErrorInvalidHandle), never a crash.
#include "hip_test.hpp"
#include "test_files.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

extern char** environ;

// Found next to the executable when the tests run outside the build tree.
static const std::string kChildPath = hip_test::helper_file(IPC_CHILD_PATH);

namespace {

constexpr size_t kBytes = size_t{1} << 20;

template <typename T>
std::string hex(const T& value) {
  std::string out;
  const auto* p = reinterpret_cast<const unsigned char*>(&value);
  char byte[3];
  for (size_t i = 0; i < sizeof value; ++i) {
    std::snprintf(byte, sizeof byte, "%02x", p[i]);
    out += byte;
  }
  return out;
}

// Whether the device under test shares memory between processes (skips otherwise).
bool ipc_supported() {
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, kBytes));
  hipIpcMemHandle_t handle{};
  const hipError_t rc = hipIpcGetMemHandle(&handle, p);
  HIP_CHECK(hipFree(p));
  if (rc == hipErrorNotSupported) {
    hip_test::skip("the device under test has no IPC memory handles");
    return false;
  }
  HIP_CHECK(rc);
  return true;
}

}  // namespace

TEST_CASE("Unit_hipIpcMemHandle_Positive_ChildProcess") {
  if (!ipc_supported()) return;
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, kBytes));
  hip_test::Stream stream;
  HIP_CHECK(hipMemsetAsync(p, 0x3C, kBytes, stream.get()));
  hipEvent_t event = nullptr;
  HIP_CHECK(hipEventCreateWithFlags(&event, hipEventInterprocess | hipEventDisableTiming));
  HIP_CHECK(hipEventRecord(event, stream.get()));
  hipIpcMemHandle_t memory{};
  HIP_CHECK(hipIpcGetMemHandle(&memory, p));
  hipIpcEventHandle_t event_handle{};
  HIP_CHECK(hipIpcGetEventHandle(&event_handle, event));

  const std::string memory_text = hex(memory), event_text = hex(event_handle),
                    bytes_text = std::to_string(kBytes);
  const char* argv[] = {kChildPath.c_str(),
                        memory_text.c_str(),
                        event_text.c_str(),
                        bytes_text.c_str(),
                        "60",
                        nullptr};
  pid_t pid = 0;
  REQUIRE(::posix_spawn(&pid, kChildPath.c_str(), nullptr, nullptr, const_cast<char**>(argv),
                        environ) == 0);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  // The child's record (after its fill) is this event's newest: complete, and the
  // child's bytes are here.
  HIP_CHECK(hipEventSynchronize(event));
  HIP_CHECK(hipEventQuery(event));
  std::vector<unsigned char> host(kBytes);
  HIP_CHECK(hipMemcpy(host.data(), p, kBytes, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < kBytes; ++i)
    if (host[i] != 61) FAIL("byte " << i << " is " << int(host[i]) << " after the child wrote 61");
  HIP_CHECK(hipEventDestroy(event));
  HIP_CHECK(hipFree(p));
}

TEST_CASE("Unit_hipIpcMemHandle_Positive_OpenedTwiceInProcess") {
  if (!ipc_supported()) return;
  // CUDA refuses handles in the process that made them; the CPU agent maps them again.
  if (!hip_test::props().integrated) {
    hip_test::skip("a GPU driver opens IPC handles only in other processes");
    return;
  }
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, kBytes));
  hipIpcMemHandle_t handle{};
  HIP_CHECK(hipIpcGetMemHandle(&handle, p));
  void* q = nullptr;
  HIP_CHECK(hipIpcOpenMemHandle(&q, handle, 0));
  REQUIRE(q != nullptr);
  HIP_CHECK(hipMemset(p, 0x5A, kBytes));
  unsigned char last = 0;
  HIP_CHECK(
      hipMemcpy(&last, static_cast<unsigned char*>(q) + kBytes - 1, 1, hipMemcpyDeviceToHost));
  REQUIRE(last == 0x5A);
  size_t size = 0;
  void* base = nullptr;
  HIP_CHECK(hipMemGetAddressRange(&base, &size, static_cast<unsigned char*>(q) + 10));
  REQUIRE(base == q);
  REQUIRE(size == kBytes);
  HIP_CHECK_ERROR(hipFree(q), hipErrorInvalidValue);  // not this process's allocation
  HIP_CHECK(hipIpcCloseMemHandle(q));
  HIP_CHECK_ERROR(hipIpcCloseMemHandle(q), hipErrorInvalidValue);
  HIP_CHECK(hipFree(p));
}

TEST_CASE("Unit_hipIpcMemHandle_Negative_Parameters") {
  if (!ipc_supported()) return;
  hipIpcMemHandle_t handle{};
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, kBytes));
  HIP_CHECK_ERROR(hipIpcGetMemHandle(nullptr, p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipIpcGetMemHandle(&handle, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipIpcGetMemHandle(&handle, static_cast<char*>(p) + 64), hipErrorInvalidValue);
  int local = 0;
  HIP_CHECK_ERROR(hipIpcGetMemHandle(&handle, &local), hipErrorInvalidValue);
  // Small allocations live on the host heap on the CPU agent (docs/ipc.md); GPUs share them.
  void* small = nullptr;
  HIP_CHECK(hipMalloc(&small, 256));
  hipDeviceProp_t props{};
  HIP_CHECK(hipGetDeviceProperties(&props, hip_test::device()));
  if (props.integrated) HIP_CHECK_ERROR(hipIpcGetMemHandle(&handle, small), hipErrorNotSupported);
  HIP_CHECK(hipFree(small));

  void* q = nullptr;
  hipIpcMemHandle_t garbage{};
  std::memset(garbage.reserved, 0x7F, sizeof garbage.reserved);
  HIP_CHECK_ERROR(hipIpcOpenMemHandle(&q, garbage, 0), hipErrorInvalidValue);
  HIP_CHECK(hipIpcGetMemHandle(&handle, p));
  HIP_CHECK_ERROR(hipIpcOpenMemHandle(nullptr, handle, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipIpcOpenMemHandle(&q, handle, 0x10), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipIpcCloseMemHandle(nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipIpcCloseMemHandle(p), hipErrorInvalidValue);  // not opened from a handle
  HIP_CHECK(hipFree(p));
}

TEST_CASE("Unit_hipIpcEventHandle_Negative_Parameters") {
  if (!ipc_supported()) return;
  hipIpcEventHandle_t handle{};
  hip_test::Event plain(hipEventDisableTiming);
  HIP_CHECK_ERROR(hipIpcGetEventHandle(&handle, plain.get()), hipErrorInvalidHandle);
  HIP_CHECK_ERROR(hipIpcGetEventHandle(&handle, nullptr), hipErrorInvalidHandle);
  hipEvent_t shared = nullptr;
  HIP_CHECK(hipEventCreateWithFlags(&shared, hipEventInterprocess | hipEventDisableTiming));
  HIP_CHECK_ERROR(hipIpcGetEventHandle(nullptr, shared), hipErrorInvalidValue);
  HIP_CHECK(hipIpcGetEventHandle(&handle, shared));
  hipEvent_t opened = nullptr;
  HIP_CHECK_ERROR(hipIpcOpenEventHandle(nullptr, handle), hipErrorInvalidValue);
  hipIpcEventHandle_t garbage{};
  std::memset(garbage.reserved, 0x11, sizeof garbage.reserved);
  if (hip_test::props().integrated) {
    HIP_CHECK_ERROR(hipIpcOpenEventHandle(&opened, garbage), hipErrorInvalidValue);
  } else {
    // A GPU's vendor driver decides what garbage is: CUDA cannot map it (hipErrorMapFailed,
    // one of the errors HIP documents for this call).
    const hipError_t error = hipIpcOpenEventHandle(&opened, garbage);
    REQUIRE((error == hipErrorMapFailed || error == hipErrorInvalidValue));
  }
  if (!hip_test::props().integrated) {  // GPU drivers open handles only in other processes
    HIP_CHECK(hipEventDestroy(shared));
    return;
  }
  // Opened in this process too: records through either are seen by both.
  HIP_CHECK(hipIpcOpenEventHandle(&opened, handle));
  HIP_CHECK(hipEventQuery(opened));
  hip_test::Stream stream;
  HIP_CHECK(hipEventRecord(opened, stream.get()));
  HIP_CHECK(hipEventSynchronize(shared));
  HIP_CHECK(hipEventQuery(shared));
  HIP_CHECK(hipEventDestroy(opened));
  HIP_CHECK(hipEventDestroy(shared));
}
