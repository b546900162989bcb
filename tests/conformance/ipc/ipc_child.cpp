// SPDX-License-Identifier: MIT
// Child of the conformance_ipc tests: opens the parent's memory and event handles
// (hex on the command line), waits for the event, checks the parent's bytes (value
// SEED), writes SEED + 1 over them, records the event after its own write, and
// closes the handle. Exit status 0 on success. Runs on $WEFT_TEST_DEVICE.
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

int fail(const char* what, hipError_t rc) {
  std::fprintf(stderr, "ipc_child: %s: %s\n", what, hipGetErrorName(rc));
  return 1;
}

bool unhex(const char* text, void* out, size_t bytes) {
  if (std::strlen(text) != 2 * bytes) return false;
  auto* p = static_cast<unsigned char*>(out);
  for (size_t i = 0; i < bytes; ++i) {
    unsigned byte = 0;
    if (std::sscanf(text + 2 * i, "%2x", &byte) != 1) return false;
    p[i] = static_cast<unsigned char>(byte);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  hipIpcMemHandle_t memory{};
  hipIpcEventHandle_t event_handle{};
  if (argc != 5 || !unhex(argv[1], &memory, sizeof memory) ||
      !unhex(argv[2], &event_handle, sizeof event_handle)) {
    std::fprintf(stderr, "usage: ipc_child MEMORY_HANDLE_HEX EVENT_HANDLE_HEX BYTES SEED\n");
    return 2;
  }
  const size_t bytes = std::strtoull(argv[3], nullptr, 10);
  const int seed = std::atoi(argv[4]);
  const char* device_text = std::getenv("WEFT_TEST_DEVICE");
  if (hipError_t rc = hipSetDevice(device_text ? std::atoi(device_text) : 0))
    return fail("hipSetDevice", rc);

  void* p = nullptr;
  if (hipError_t rc = hipIpcOpenMemHandle(&p, memory, hipIpcMemLazyEnablePeerAccess))
    return fail("hipIpcOpenMemHandle", rc);
  hipEvent_t event = nullptr;
  if (hipError_t rc = hipIpcOpenEventHandle(&event, event_handle))
    return fail("hipIpcOpenEventHandle", rc);
  // The parent's last record covers its fill.
  hipStream_t stream = nullptr;
  if (hipError_t rc = hipStreamCreate(&stream)) return fail("hipStreamCreate", rc);
  if (hipError_t rc = hipStreamWaitEvent(stream, event, 0)) return fail("hipStreamWaitEvent", rc);
  std::vector<unsigned char> host(bytes);
  if (hipError_t rc = hipMemcpyAsync(host.data(), p, bytes, hipMemcpyDeviceToHost, stream))
    return fail("hipMemcpyAsync", rc);
  if (hipError_t rc = hipStreamSynchronize(stream)) return fail("hipStreamSynchronize", rc);
  for (size_t i = 0; i < bytes; ++i)
    if (host[i] != static_cast<unsigned char>(seed)) {
      std::fprintf(stderr, "ipc_child: byte %zu is %u, not the parent's %d\n", i, host[i], seed);
      return 1;
    }
  if (hipError_t rc = hipMemsetAsync(p, seed + 1, bytes, stream)) return fail("hipMemsetAsync", rc);
  if (hipError_t rc = hipEventRecord(event, stream)) return fail("hipEventRecord", rc);
  if (hipError_t rc = hipEventSynchronize(event)) return fail("hipEventSynchronize", rc);
  if (hipError_t rc = hipFree(p); rc != hipErrorInvalidValue)
    return fail("hipFree of an IPC mapping", rc);
  if (hipError_t rc = hipIpcCloseMemHandle(p)) return fail("hipIpcCloseMemHandle", rc);
  if (hipError_t rc = hipEventDestroy(event)) return fail("hipEventDestroy", rc);
  if (hipError_t rc = hipStreamDestroy(stream)) return fail("hipStreamDestroy", rc);
  return 0;
}
