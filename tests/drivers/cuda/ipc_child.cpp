// SPDX-License-Identifier: MIT
// The other process of Cuda_Hip_Ipc_WithChildProcess: opens the parent's memory
// and event handles (hex on the command line), checks the parent's fill,
// overwrites it and waits for the parent's event. Exit 0 on success; a message
// and exit 1 otherwise.
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

bool unhex(const char* text, void* out, size_t n) {
  if (std::strlen(text) != 2 * n) return false;
  auto* bytes = static_cast<unsigned char*>(out);
  for (size_t i = 0; i < n; ++i) {
    unsigned v = 0;
    if (std::sscanf(text + 2 * i, "%2x", &v) != 1) return false;
    bytes[i] = static_cast<unsigned char>(v);
  }
  return true;
}

int fail(const char* what, hipError_t e) {
  std::fprintf(stderr, "cuda_ipc_child: %s: %s\n", what, hipGetErrorName(e));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: cuda_ipc_child <device> <mem handle hex> <event handle hex>\n");
    return 2;
  }
  hipIpcMemHandle_t mem;
  hipIpcEventHandle_t ev;
  if (!unhex(argv[2], &mem, sizeof(mem)) || !unhex(argv[3], &ev, sizeof(ev))) return 2;
  if (hipError_t e = hipSetDevice(std::atoi(argv[1])); e != hipSuccess)
    return fail("hipSetDevice", e);
  hipEvent_t event = nullptr;
  if (hipError_t e = hipIpcOpenEventHandle(&event, ev); e != hipSuccess)
    return fail("hipIpcOpenEventHandle", e);
  if (hipError_t e = hipEventSynchronize(event); e != hipSuccess)
    return fail("hipEventSynchronize", e);
  void* ptr = nullptr;
  if (hipError_t e = hipIpcOpenMemHandle(&ptr, mem, hipIpcMemLazyEnablePeerAccess); e != hipSuccess)
    return fail("hipIpcOpenMemHandle", e);
  std::vector<int> values(1024);
  if (hipError_t e = hipMemcpy(values.data(), ptr, values.size() * sizeof(int), hipMemcpyDefault);
      e != hipSuccess)
    return fail("hipMemcpy", e);
  if (values[0] != 0x77 || values[1023] != 0x77) {
    std::fprintf(stderr, "cuda_ipc_child: expected 0x77, read %#x\n", values[0]);
    return 1;
  }
  if (hipError_t e = hipMemsetD32(ptr, 0x5eed, values.size()); e != hipSuccess)
    return fail("hipMemsetD32", e);
  if (hipError_t e = hipIpcCloseMemHandle(ptr); e != hipSuccess)
    return fail("hipIpcCloseMemHandle", e);
  if (hipError_t e = hipEventDestroy(event); e != hipSuccess) return fail("hipEventDestroy", e);
  std::printf("cuda_ipc_child: opened, checked and rewrote %zu ints\n", values.size());
  return 0;
}
