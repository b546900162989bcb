/* SPDX-License-Identifier: MIT */
/* The HIP runtime header. With an ordinary C++ compiler (g++, clang++ without
 * -x hip) it also provides the kernel language for single-source kernels that
 * weft runs on the CPU agent: __global__, threadIdx, __syncthreads,
 * hipLaunchKernelGGL, atomics (see hip/weft/single_source.h). */
#ifndef WEFT_HIP_RUNTIME_H
#define WEFT_HIP_RUNTIME_H

#if defined(__HIP__) || defined(__CUDACC__)
#error "weft's headers serve ordinary C++ compilers. Build HIP-language (hipcc) sources with AMD's HIP headers; the binaries they produce run on weft's libamdhip64 unchanged."
#endif

/* What AMD's hip_runtime.h brings in (directly or through its amd_detail headers and, under
 * hipcc, Clang's CUDA wrapper headers), so that a program relying on it compiles here too. */
#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __cplusplus
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <new>
#include <thread>
#else
#include <math.h>
#endif

#include <hip/hip_common.h>
#include <hip/hip_version.h>
#include <hip/hip_runtime_api.h>
#include <hip/library_types.h>
#include <hip/hip_vector_types.h>

/* A __device__ or __constant__ variable names its own symbol: hipMemcpyToSymbol & co. take it
 * by reference (the C++ overloads in hip_runtime_api.h), as with AMD's HIP_SYMBOL(X) X. */
#ifndef HIP_SYMBOL
#define HIP_SYMBOL(X) X
#endif

#ifdef __cplusplus
#include <hip/weft/single_source.h>
#include <hip/weft/texture_fetch.h> /* tex*D, surf*D on the CPU agent (docs/textures.md) */
/* __half and __half2 without an explicit <hip/hip_fp16.h>, as HIP-CPU programs expect. */
#define WEFT_HIP_RUNTIME_INCLUDES_FP16
#include <hip/hip_fp16.h>
#undef WEFT_HIP_RUNTIME_INCLUDES_FP16
#endif

#endif /* WEFT_HIP_RUNTIME_H */
