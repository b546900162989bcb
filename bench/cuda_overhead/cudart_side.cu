// SPDX-License-Identifier: MIT
// The cudart side of bench/cuda_overhead: what a program built by nvcc does.
// Compiled by nvcc into an object; its entry points are plain C functions so the
// benchmark itself is ordinary C++ (g++).
#include <cuda_runtime.h>

extern "C" __global__ void bench_kernel_rt(float* p, int n) {
  if (p && threadIdx.x + blockIdx.x * blockDim.x < unsigned(n)) p[threadIdx.x] += 1.0f;
}

extern "C" {

int rt_init() { return cudaFree(nullptr); }
int rt_stream_create(void** s) {
  return cudaStreamCreateWithFlags(reinterpret_cast<cudaStream_t*>(s), cudaStreamNonBlocking);
}
int rt_stream_sync(void* s) { return cudaStreamSynchronize(static_cast<cudaStream_t>(s)); }
int rt_device_sync() { return cudaDeviceSynchronize(); }
int rt_launch(void* s, float* p, int n) {
  void* args[] = {&p, &n};
  return cudaLaunchKernel(reinterpret_cast<const void*>(&bench_kernel_rt), dim3(1), dim3(32), args,
                          0, static_cast<cudaStream_t>(s));
}
int rt_malloc(void** p, size_t n) { return cudaMalloc(p, n); }
int rt_free(void* p) { return cudaFree(p); }
int rt_host_alloc(void** p, size_t n) { return cudaHostAlloc(p, n, cudaHostAllocPortable); }
int rt_host_free(void* p) { return cudaFreeHost(p); }
int rt_memcpy_async(void* dst, const void* src, size_t n, void* s) {
  return cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, static_cast<cudaStream_t>(s));
}
int rt_event_create(void** e) {
  return cudaEventCreateWithFlags(reinterpret_cast<cudaEvent_t*>(e), cudaEventDisableTiming);
}
int rt_event_record_sync(void* e, void* s) {
  int r = cudaEventRecord(static_cast<cudaEvent_t>(e), static_cast<cudaStream_t>(s));
  return r ? r : cudaEventSynchronize(static_cast<cudaEvent_t>(e));
}
int rt_library_load_unload(const void* image) {
  cudaLibrary_t lib;
  int r = cudaLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
  return r ? r : cudaLibraryUnload(lib);
}

}  // extern "C"
