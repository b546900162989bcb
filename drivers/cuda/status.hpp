// SPDX-License-Identifier: MIT
// CUDA driver results as weft Status values: the one place CUresult codes are
// translated. Messages name the failing call and carry CUDA's own error name,
// e.g. "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
#pragma once

#include <weft/driver/status.hpp>

#include "api.hpp"

namespace weft::cuda {

// The HIP error for a CUDA driver result (hipErrorUnknown for codes HIP lacks).
hipError_t hip_error_from_cuda(CUresult result);

// CUDA's name for a result ("CUDA_ERROR_ILLEGAL_ADDRESS"), or "CUresult <n>".
std::string cuda_error_name(const Api* api, CUresult result);

// OK for CUDA_SUCCESS; otherwise the mapped error, naming `call`. The success
// test is inline: it runs after every driver call on the launch and event paths.
Status status_from_cuda_failure(CUresult result, const char* call);
inline Status status_from_cuda(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) [[likely]]
    return Status();
  return status_from_cuda_failure(result, call);
}

// Checks a CUDA call and returns its Status from the enclosing function on failure.
// The call text is the message, e.g. WEFT_CU_RETURN_IF_ERROR(api.cuCtxSetCurrent(c)).
#define WEFT_CU_RETURN_IF_ERROR(expr) \
  WEFT_RETURN_IF_ERROR(::weft::cuda::status_from_cuda((expr), #expr))

}  // namespace weft::cuda
