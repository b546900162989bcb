// SPDX-License-Identifier: MIT
// The HIP device language under clang's HIP mode (weftcc): the pass's primitive layer,
// then the shared layer on top of it (README.md in this folder), then the host-side
// launch macros. Included by hip/hip_runtime.h inside its host+device region.
#ifndef WEFT_HIP_DEVICE_LANGUAGE_H
#define WEFT_HIP_DEVICE_LANGUAGE_H

#if !defined(__HIP__)
#error "hip/weft/device/language.h is for clang's HIP mode (weftcc)"
#endif

#include <hip/weft/device/qualifiers.h>

#if !defined(__HIP_DEVICE_COMPILE__)
#include <hip/weft/device/host.h>
#elif defined(__NVPTX__)
#include <hip/weft/device/nvptx.h>
#elif defined(__AMDGCN__)
#include <hip/weft/device/amdgcn.h>
#elif defined(__x86_64__)
#include <hip/weft/device/x86_64.h>
#else
#error "weft: no device layer for this target (known: x86_64, nvptx, amdgcn)"
#endif

#include <hip/weft/device/builtins.h>
#include <hip/weft/device/host_compat.h>
#include <hip/weft/device_atomics.h>
#include <hip/weft/device_math.h>

// tex*D / surf*D: the host pass and the x86_64 image read the CPU agent's software sampler
// (hip/hip_runtime.h includes hip/weft/texture_fetch.h after this file); the GPU passes have
// their own layer instead. hip_runtime.h's test for the sampler also holds in GPU passes
// (clang defines the host's __x86_64__ there too), so a GPU pass defines the sampler's
// include guard here and its include reads nothing.
#if defined(__HIP_DEVICE_COMPILE__) && (defined(__NVPTX__) || defined(__AMDGCN__))
#define WEFT_HIP_TEXTURE_FETCH_H
#if defined(__NVPTX__)
#include <hip/weft/device/nvptx_texture.h>
#else
#include <hip/weft/device/amdgcn_texture.h>
#endif
#endif

// ---- launching (host code; also parsed, not emitted, by device passes) ----
// As AMD's: the kernel expression goes to clang's <<<>>>, which calls
// __hipPushCallConfiguration, and the kernel's host stub calls __hipPopCallConfiguration
// and hipLaunchKernel (all exported by weft). So a function-pointer variable, a template
// parameter, deduced template arguments and HIP_KERNEL_NAME(k<float, 4>) work as there.
// hipLaunchKernel with the kernel itself (the C function takes its host stub's address).
template <typename... P>
inline hipError_t hipLaunchKernel(void (*kernel)(P...), dim3 numBlocks, dim3 dimBlocks, void** args,
                                  size_t sharedMemBytes = 0, hipStream_t stream = nullptr) {
  return hipLaunchKernel(reinterpret_cast<const void*>(kernel), numBlocks, dimBlocks, args,
                         sharedMemBytes, stream);
}

#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...) \
  do {                                                                     \
    kernel<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__);    \
  } while (0)

#endif  // WEFT_HIP_DEVICE_LANGUAGE_H
