// SPDX-License-Identifier: MIT
// libFuzzer target: hipModuleLoadData end to end (measure, copy, open the
// container, check and dlopen a CPU code object, get functions and a global,
// unload) on the fuzz input, placed against a PROT_NONE page so that reading
// past its end faults. Linked against the built libamdhip64.
#include <hip/hip_runtime.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("AMD_LOG_LEVEL", "0", 1);  // every rejected input would log a line
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t body = (size + page - 1) / page * page + page;  // at least one readable page
  auto* map = static_cast<unsigned char*>(
      mmap(nullptr, body + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (map == MAP_FAILED) return 0;
  mprotect(map + body, page, PROT_NONE);
  unsigned char* image = map + body - size;
  if (size) std::memcpy(image, data, size);
  hipModule_t module = nullptr;
  if (hipModuleLoadData(&module, image) == hipSuccess) {
    for (const char* name : {"fill_index", "axpy", "scale<float>", "_Z9block_sumPKiPi", "missing"}) {
      hipFunction_t f = nullptr;
      if (hipModuleGetFunction(&f, module, name) == hipSuccess) (void)hipKernelNameRef(f);
    }
    hipDeviceptr_t global = nullptr;
    size_t bytes = 0;
    (void)hipModuleGetGlobal(&global, &bytes, module, "table");
    (void)hipModuleUnload(module);
  }
  munmap(map, body + page);
  return 0;
}
