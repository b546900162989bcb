/* SPDX-License-Identifier: MIT */
/* weft: platform selection and host/device qualifiers shared by every public HIP header.
 *
 * weft implements AMD's HIP ABI, so a translation unit that names no platform gets
 * __HIP_PLATFORM_AMD__. The qualifier macros below are defined only when nobody (the HIP
 * compiler, clang's CUDA/HIP wrappers, or weft's own <hip/weft/...> headers) has defined
 * them first, so including this header never changes an existing definition. */
#ifndef HIP_INCLUDE_HIP_HIP_COMMON_H
#define HIP_INCLUDE_HIP_HIP_COMMON_H

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wreserved-macro-identifier"
#pragma clang diagnostic ignored "-Wreserved-identifier"
#endif

/* ---- Platform ----------------------------------------------------------------------------- */

/* A HIP compile (clang -x hip) is always the AMD platform. */
#if defined(__clang__) && defined(__HIP__) && !defined(__HIP_PLATFORM_AMD__)
#define __HIP_PLATFORM_AMD__ 1
#endif

/* nvcc, or clang in CUDA mode, selects the NVIDIA platform (weft does not implement it, but the
 * macro keeps portable user code on its usual path). */
#if (defined(__NVCC__) || (defined(__clang__) && defined(__CUDA__) && !defined(__HIP__))) && \
    !defined(__HIP_PLATFORM_AMD__)
#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__ 1
#endif
#ifdef __CUDACC__
#define __HIPCC__
#endif
#endif

/* Plain host compilers (gcc, g++, clang without -x hip): weft speaks AMD's ABI. */
#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
#define __HIP_PLATFORM_AMD__ 1
#endif

#if defined(__HIP_PLATFORM_AMD__) && defined(__HIP_PLATFORM_NVIDIA__)
#error "weft: define at most one of __HIP_PLATFORM_AMD__ and __HIP_PLATFORM_NVIDIA__"
#endif

/* Lets code tell weft's headers apart from AMD's. */
#define __HIP_PLATFORM_WEFT__ 1

/* Legacy spellings that older code still tests. */
#if defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_HCC__) && \
    defined(WEFT_DEFINE_LEGACY_PLATFORM_MACROS)
#define __HIP_PLATFORM_HCC__ 1
#endif

/* True only in a device-side compilation pass. */
#if (defined(__HIP_DEVICE_COMPILE__) && __HIP_DEVICE_COMPILE__ != 0) || \
    (defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 0)
#ifndef __HIP_DEVICE_COMPILE__
#define __HIP_DEVICE_COMPILE__ 1
#endif
#endif

/* ---- Symbol visibility -------------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
#define HIP_PUBLIC_API __attribute__((visibility("default")))
#define HIP_INTERNAL_EXPORTED_API __attribute__((visibility("default")))
#else
#define HIP_PUBLIC_API
#define HIP_INTERNAL_EXPORTED_API
#endif

/* ---- Host/device qualifiers --------------------------------------------------------------- */
/* Under clang's HIP/CUDA modes these map onto the language attributes; for any other compiler
 * they are empty, so the API headers (dim3's constructor, inline helpers) stay plain C/C++. */

#if defined(__clang__) && (defined(__HIP__) || defined(__CUDA__))
#define WEFT_QUALIFIER_ATTR_(x) __attribute__((x))
#else
#define WEFT_QUALIFIER_ATTR_(x)
#endif

#ifndef __host__
#define __host__ WEFT_QUALIFIER_ATTR_(host)
#endif
#ifndef __device__
#define __device__ WEFT_QUALIFIER_ATTR_(device)
#endif

/* ---- Feature macros for host passes -------------------------------------------------------- */
/* The device pass (compiler) defines the real values; host code sees "not available". */
#if !defined(__HIP_DEVICE_COMPILE__) || __HIP_DEVICE_COMPILE__ == 0
#ifndef __HIP_ARCH_HAS_GLOBAL_INT32_ATOMICS__
#define __HIP_ARCH_HAS_GLOBAL_INT32_ATOMICS__ (0)
#define __HIP_ARCH_HAS_GLOBAL_FLOAT_ATOMIC_EXCH__ (0)
#define __HIP_ARCH_HAS_SHARED_INT32_ATOMICS__ (0)
#define __HIP_ARCH_HAS_SHARED_FLOAT_ATOMIC_EXCH__ (0)
#define __HIP_ARCH_HAS_FLOAT_ATOMIC_ADD__ (0)
#define __HIP_ARCH_HAS_GLOBAL_INT64_ATOMICS__ (0)
#define __HIP_ARCH_HAS_SHARED_INT64_ATOMICS__ (0)
#define __HIP_ARCH_HAS_DOUBLES__ (0)
#define __HIP_ARCH_HAS_WARP_VOTE__ (0)
#define __HIP_ARCH_HAS_WARP_BALLOT__ (0)
#define __HIP_ARCH_HAS_WARP_SHUFFLE__ (0)
#define __HIP_ARCH_HAS_WARP_FUNNEL_SHIFT__ (0)
#define __HIP_ARCH_HAS_THREAD_FENCE_SYSTEM__ (0)
#define __HIP_ARCH_HAS_SYNC_THREAD_EXT__ (0)
#define __HIP_ARCH_HAS_SURFACE_FUNCS__ (0)
#define __HIP_ARCH_HAS_3DGRID__ (0)
#define __HIP_ARCH_HAS_DYNAMIC_PARALLEL__ (0)
#endif
#endif

/* ---- Deprecation ------------------------------------------------------------------------- */
/* AMD marks deprecated entry points with HIP_DEPRECATED(msg)/DEPRECATED(msg). weft keeps the
 * markers but makes them no-ops unless WEFT_WARN_DEPRECATED is defined, so user builds with
 * -Werror keep compiling against weft exactly as they did before a function was deprecated. */
#if defined(WEFT_WARN_DEPRECATED) && (defined(__GNUC__) || defined(__clang__))
#define WEFT_DEPRECATED_(msg) __attribute__((deprecated(msg)))
#elif defined(WEFT_WARN_DEPRECATED) && defined(_MSC_VER)
#define WEFT_DEPRECATED_(msg) __declspec(deprecated(msg))
#else
#define WEFT_DEPRECATED_(msg)
#endif

#ifndef HIP_DEPRECATED
#define HIP_DEPRECATED(msg) WEFT_DEPRECATED_(msg)
#endif
#ifndef DEPRECATED
#define DEPRECATED(msg) WEFT_DEPRECATED_(msg)
#endif
#ifndef HIP_DEPRECATED_MSG
#define HIP_DEPRECATED_MSG                                              \
  "This HIP API is deprecated and may be removed in a future release; " \
  "see the HIP deprecated API list."
#endif
#ifndef DEPRECATED_MSG
#define DEPRECATED_MSG HIP_DEPRECATED_MSG
#endif

/* Default arguments exist only in C++. */
#ifndef __dparm
#ifdef __cplusplus
#define __dparm(x) = x
#else
#define __dparm(x)
#endif
#endif

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#endif /* HIP_INCLUDE_HIP_HIP_COMMON_H */
