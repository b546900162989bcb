// SPDX-License-Identifier: MIT
// Host-side conveniences shared by the g++ single-source path and clang's HIP mode.
#ifndef WEFT_HIP_DEVICE_HOST_COMPAT_H
#define WEFT_HIP_DEVICE_HOST_COMPAT_H

#include <hip/hip_runtime_api.h>

// HIP-CPU accepts hipMemcpy and hipMemcpyAsync without a kind (the direction follows from the pointers, as
// hipMemcpyDefault does); programs written for it compile here too. C++ only, an overload
// next to the C function, so the exported symbol and its ABI are untouched.
inline hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes) {
  return hipMemcpy(dst, src, sizeBytes, hipMemcpyDefault);
}
inline hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes,
                                 hipStream_t stream = nullptr) {
  return hipMemcpyAsync(dst, src, sizeBytes, hipMemcpyDefault, stream);
}

#endif  // WEFT_HIP_DEVICE_HOST_COMPAT_H
