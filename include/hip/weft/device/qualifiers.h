// SPDX-License-Identifier: MIT
// HIP's declaration qualifiers under clang's HIP mode (clang -x hip, as weftcc drives it),
// the same for the host pass and every device pass, so each pass sees the same
// declarations and mangles kernels the same way.
//
// The x86-64 device pass (the CPU image, hip/weft/device/x86_64.h) adds what the GPU
// passes do not need:
// - __global__ also annotates the function "weft.kernel": the CPU image finds its kernels
//   (template instances included) in the pass's LLVM IR by that annotation; and it is
//   always_inline, so the image's entry inlines the kernel into its per-thread loops and
//   around the fiber switches as the g++ path does (clang's `flatten` inlines one level
//   only; GCC's inlines the whole call tree);
// - __shared__ variables are thread_local: a block runs on one worker thread at a time
//   (its GPU threads are fibers of that thread; a cooperative launch gives every block its
//   own thread), so per-thread storage is per-block storage. extern __shared__ arrays
//   become undefined thread-local symbols that the image binds to its dynamic shared
//   memory (tools/weftcc/weftcc_lib/cpu_image.py).
// - __managed__ variables are plain device variables: the runtime makes the host's slot
//   point at the image's copy when the image loads (docs/code-objects.md).
// - __launch_bounds__(N, ...) also annotates the kernel "weft.launch_bounds" with its
//   arguments: the CPU image's record takes N as the kernel's maxThreadsPerBlock, which
//   hipFuncGetAttributes answers and every launch is checked against.
#ifndef WEFT_HIP_DEVICE_QUALIFIERS_H
#define WEFT_HIP_DEVICE_QUALIFIERS_H

#if !defined(__HIP__)
#error "hip/weft/device/qualifiers.h is for clang's HIP mode (weftcc)"
#endif

#if defined(__HIP_DEVICE_COMPILE__) && defined(__x86_64__) && !defined(__NVPTX__) && \
    !defined(__AMDGCN__)
#define WEFT_CPU_DEVICE_PASS 1
#endif

// libstdc++ spells its own attribute __noinline__ in <memory> (and <stacktrace>): parse
// those before the macro exists (including them again later is a no-op).
#ifdef __cplusplus
#include <memory>
#if __cplusplus > 202002L && __has_include(<stacktrace>)
#include <stacktrace>
#endif
#endif

#undef __host__
#undef __device__
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#if defined(WEFT_CPU_DEVICE_PASS)
#define __global__ __attribute__((global, annotate("weft.kernel"), always_inline))
#define __shared__ __attribute__((shared)) thread_local
#define __managed__ __attribute__((device))
#else
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __managed__ __attribute__((managed))
#endif
#define __constant__ __attribute__((constant))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#if defined(WEFT_CPU_DEVICE_PASS)
// The CPU image's record carries the kernel's limit (maxThreadsPerBlock): the pass's IR
// lists it as an annotation with arguments, which cpu_image.py reads.
#define __launch_bounds__(...) \
  __attribute__((launch_bounds(__VA_ARGS__), annotate("weft.launch_bounds", __VA_ARGS__)))
#else
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#endif
#ifndef __restrict__
#define __restrict__ __restrict
#endif

#endif  // WEFT_HIP_DEVICE_QUALIFIERS_H
