// SPDX-License-Identifier: MIT
// What the weftcc pipeline tests' sources need, declared by hand: the host pass under
// clang's HIP mode sees only this (no HIP header), and the test target module
// (gxx_cpu_target.py, WEFTCC_TEST_CPU_OBJECT) sees weft's single-source headers. So
// these tests check weftcc's plumbing (device step -> bundle -> host pass -> link ->
// registration -> launch on the CPU agent) independently of weft's HIP-mode headers.
#pragma once
#ifdef WEFTCC_TEST_CPU_OBJECT
#include <hip/weft/cpu_code_object.h>
#define WEFTCC_TEST_KERNEL(k) WEFT_CPU_KERNEL(k)
#else
#include <stddef.h>
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define WEFTCC_TEST_KERNEL(k)
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct weftcc_test_index {
  unsigned x, y, z;
};
extern __device__ const weftcc_test_index threadIdx, blockIdx, blockDim;
typedef struct ihipStream_t* hipStream_t;
extern "C" {
int __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0,
                               hipStream_t stream = nullptr);
int __hipPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, hipStream_t* stream);
int hipLaunchKernel(const void* f, dim3 grid, dim3 block, void** args, size_t shared,
                    hipStream_t stream);
int hipMalloc(void** p, size_t size);
int hipFree(void* p);
int hipMemcpy(void* dst, const void* src, size_t size, int kind);
int hipDeviceSynchronize(void);
int hipGetLastError(void);
}
#endif
