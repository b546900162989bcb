// SPDX-License-Identifier: MIT
// Child of Unit_hipMemPoolExport_Positive_ChildProcess: imports the parent's pool from an
// inherited descriptor and one pointer from its export data, checks the parent's pattern
// (seed 3) and writes seed 5 for the parent to read. Exit status 0 on success.
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

int fail(const char* what, hipError_t rc) {
  std::fprintf(stderr, "mempool_child: %s: %s\n", what, hipGetErrorName(rc));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || std::strlen(argv[2]) != 2 * sizeof(hipMemPoolPtrExportData)) {
    std::fprintf(stderr, "usage: mempool_child FD EXPORT_DATA_HEX COUNT\n");
    return 2;
  }
  int fd = std::atoi(argv[1]);
  int n = std::atoi(argv[3]);
  hipMemPoolPtrExportData data{};
  for (size_t i = 0; i < sizeof data.reserved; ++i) {
    unsigned byte = 0;
    if (std::sscanf(argv[2] + 2 * i, "%2x", &byte) != 1) return 2;
    data.reserved[i] = static_cast<unsigned char>(byte);
  }
  hipMemPool_t pool = nullptr;
  hipError_t rc =
      hipMemPoolImportFromShareableHandle(&pool, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                                          hipMemHandleTypePosixFileDescriptor, 0);
  if (rc != hipSuccess) return fail("hipMemPoolImportFromShareableHandle", rc);
  void* ptr = nullptr;
  if ((rc = hipMemPoolImportPointer(&ptr, pool, &data)) != hipSuccess)
    return fail("hipMemPoolImportPointer", rc);
  std::vector<int> host(static_cast<size_t>(n));
  if ((rc = hipMemcpy(host.data(), ptr, host.size() * sizeof(int), hipMemcpyDeviceToHost)) !=
      hipSuccess)
    return fail("hipMemcpy from the imported pointer", rc);
  for (int i = 0; i < n; ++i) {
    if (host[i] != 3000 + i) {
      std::fprintf(stderr, "mempool_child: element %d is %d, not %d\n", i, host[i], 3000 + i);
      return 1;
    }
    host[i] = 5000 + i;
  }
  if ((rc = hipMemcpy(ptr, host.data(), host.size() * sizeof(int), hipMemcpyHostToDevice)) !=
      hipSuccess)
    return fail("hipMemcpy to the imported pointer", rc);
  if ((rc = hipFree(ptr)) != hipSuccess) return fail("hipFree of the imported pointer", rc);
  if ((rc = hipMemPoolDestroy(pool)) != hipSuccess) return fail("hipMemPoolDestroy", rc);
  return 0;
}
