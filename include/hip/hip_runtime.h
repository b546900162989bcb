/* SPDX-License-Identifier: MIT */
/* The HIP runtime header. Two ways in:
 * - an ordinary C++ compiler (g++, clang++ without -x hip): it also provides the
 *   kernel language for single-source kernels that weft runs on the CPU agent
 *   (hip/weft/single_source.h);
 * - clang's HIP mode (clang -x hip, driven by weftcc): the host pass and every
 *   device pass (x86-64 CPU image, NVIDIA, AMD) read these same headers; the
 *   device language is hip/weft/device/language.h on top of one small primitive
 *   layer per target (hip/weft/device/README.md). */
#ifndef WEFT_HIP_RUNTIME_H
#define WEFT_HIP_RUNTIME_H

#if defined(__CUDACC__) && !defined(__HIP__)
#error \
    "weft's headers do not serve CUDA front ends (nvcc, clang -x cuda): compile HIP sources with weftcc (clang -x hip) or a plain C++ compiler."
#endif

#if defined(__HIP__)
/* Everything these headers declare (and the C and C++ libraries they pull in) is
 * callable from host and device code, as under hipcc; the user's own functions keep
 * their qualifiers, so a kernel calling a host-only function still fails to build. */
#include <hip/weft/device/prelude.h>
#pragma clang force_cuda_host_device begin
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
#include <hip/hip_runtime_api.h>
#include <hip/hip_vector_types.h>
#include <hip/hip_version.h>
#include <hip/library_types.h>

/* A __device__ or __constant__ variable names its own symbol: hipMemcpyToSymbol & co. take it
 * by reference (the C++ overloads in hip_runtime_api.h), as with AMD's HIP_SYMBOL(X) X. */
#ifndef HIP_SYMBOL
#define HIP_SYMBOL(X) X
#endif

#ifdef __cplusplus
#if defined(__HIP__)
#include <hip/weft/device/language.h>
#if !defined(__HIP_DEVICE_COMPILE__) || defined(__x86_64__)
/* weftcc's host pass and x86_64 image: the CPU agent's software sampler, host+device
 * (inside the region above); the GPU passes have no tex*D yet. */
#include <hip/weft/texture_fetch.h>
#endif
#else
#include <hip/weft/single_source.h>
#include <hip/weft/texture_fetch.h> /* tex*D, surf*D on the CPU agent (docs/textures.md) */
#endif
/* __half and __half2 without an explicit <hip/hip_fp16.h>, as HIP-CPU programs expect. */
#define WEFT_HIP_RUNTIME_INCLUDES_FP16
#include <hip/hip_fp16.h>
#undef WEFT_HIP_RUNTIME_INCLUDES_FP16
#endif

#if defined(__HIP__)
#pragma clang force_cuda_host_device end
#endif

#endif /* WEFT_HIP_RUNTIME_H */
