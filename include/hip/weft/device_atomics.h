// SPDX-License-Identifier: MIT
// Device atomics for kernels weft runs on the CPU agent (included by single_source.h).
//
// Global and shared memory are both plain host memory here, so every scope (_block, the
// default agent scope, _system) is one coherence domain and the scoped variants share one
// implementation. Every read-modify-write is sequentially consistent: on x86 a locked
// instruction costs the same whatever order is asked, and CUDA-style code that builds a lock
// from atomicCAS without a fence keeps working.
//
// The public functions are non-template overloads, one per element type, as AMD's are: a
// mixed call such as atomicAdd(unsigned*, int) or atomicAdd(float*, double) converts the value
// to the pointee's type exactly as it does under hipcc. Floating-point operations are
// lock-free compare-and-swap loops.
#ifndef WEFT_HIP_DEVICE_ATOMICS_H
#define WEFT_HIP_DEVICE_ATOMICS_H

// Host and device functions under clang's HIP mode (a no-op for g++).
#include <hip/weft/device/hd_begin.h>
#include <type_traits>

// Clang predefines these for HIP; a plain C++ compiler does not. Same values as Clang's.
#ifndef __HIP_MEMORY_SCOPE_SINGLETHREAD
#define __HIP_MEMORY_SCOPE_SINGLETHREAD 1
#endif
#ifndef __HIP_MEMORY_SCOPE_WAVEFRONT
#define __HIP_MEMORY_SCOPE_WAVEFRONT 2
#endif
#ifndef __HIP_MEMORY_SCOPE_WORKGROUP
#define __HIP_MEMORY_SCOPE_WORKGROUP 3
#endif
#ifndef __HIP_MEMORY_SCOPE_AGENT
#define __HIP_MEMORY_SCOPE_AGENT 4
#endif
#ifndef __HIP_MEMORY_SCOPE_SYSTEM
#define __HIP_MEMORY_SCOPE_SYSTEM 5
#endif

namespace weft::detail {

// GCC/Clang __atomic builtins rather than std::atomic_ref, so the header works in C++17.
template <typename T, typename F>
inline T atomic_update(T* address, F update) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T desired = update(old);
  while (
      !__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
    desired = update(old);
  return old;
}

template <typename T>
inline T atomic_add(T* address, T value) {
  if constexpr (std::is_integral_v<T>) return __atomic_fetch_add(address, value, __ATOMIC_SEQ_CST);
  else return atomic_update(address, [value](T old) { return old + value; });
}
template <typename T>
inline T atomic_sub(T* address, T value) {
  if constexpr (std::is_integral_v<T>) return __atomic_fetch_sub(address, value, __ATOMIC_SEQ_CST);
  else return atomic_update(address, [value](T old) { return old - value; });
}
template <typename T>
inline T atomic_exch(T* address, T value) {
  T old;
  __atomic_exchange(address, &value, &old, __ATOMIC_SEQ_CST);
  return old;
}
// A value that does not change the minimum (or maximum) is not written, as on AMD's floating
// point loop: a CAS that stores the old value back would still be a write.
template <typename T>
inline T atomic_min(T* address, T value) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  while (value < old && !__atomic_compare_exchange(address, &old, &value, true, __ATOMIC_SEQ_CST,
                                                   __ATOMIC_RELAXED)) {
  }
  return old;
}
template <typename T>
inline T atomic_max(T* address, T value) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  while (old < value && !__atomic_compare_exchange(address, &old, &value, true, __ATOMIC_SEQ_CST,
                                                   __ATOMIC_RELAXED)) {
  }
  return old;
}
template <typename T>
inline T atomic_and(T* address, T value) {
  return __atomic_fetch_and(address, value, __ATOMIC_SEQ_CST);
}
template <typename T>
inline T atomic_or(T* address, T value) {
  return __atomic_fetch_or(address, value, __ATOMIC_SEQ_CST);
}
template <typename T>
inline T atomic_xor(T* address, T value) {
  return __atomic_fetch_xor(address, value, __ATOMIC_SEQ_CST);
}
template <typename T>
inline T atomic_cas(T* address, T compare, T value) {
  __atomic_compare_exchange(address, &compare, &value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return compare;
}
// CUDA's wrapping counters: Inc counts 0..limit then wraps to 0; Dec counts down to 0, then
// (or from anything above limit) restarts at limit.
template <typename T>
inline T atomic_inc(T* address, T limit) {
  return atomic_update(address, [limit](T old) { return old >= limit ? T(0) : T(old + 1); });
}
template <typename T>
inline T atomic_dec(T* address, T limit) {
  return atomic_update(address,
                       [limit](T old) { return (old == 0 || old > limit) ? limit : T(old - 1); });
}

}  // namespace weft::detail

// One operation for one element type, at the three scopes.
#define WEFT_ATOMIC_OP_(name, impl, T)                                                        \
  inline T name(T* address, T value) { return ::weft::detail::impl(address, value); }         \
  inline T name##_block(T* address, T value) { return ::weft::detail::impl(address, value); } \
  inline T name##_system(T* address, T value) { return ::weft::detail::impl(address, value); }
#define WEFT_ATOMIC_CAS_(T)                                     \
  inline T atomicCAS(T* address, T compare, T value) {          \
    return ::weft::detail::atomic_cas(address, compare, value); \
  }                                                             \
  inline T atomicCAS_block(T* address, T compare, T value) {    \
    return ::weft::detail::atomic_cas(address, compare, value); \
  }                                                             \
  inline T atomicCAS_system(T* address, T compare, T value) {   \
    return ::weft::detail::atomic_cas(address, compare, value); \
  }

// Operations every element type has: integers and floating point.
#define WEFT_ATOMIC_ANY_TYPE_(T)              \
  WEFT_ATOMIC_OP_(atomicAdd, atomic_add, T)   \
  WEFT_ATOMIC_OP_(atomicSub, atomic_sub, T)   \
  WEFT_ATOMIC_OP_(atomicExch, atomic_exch, T) \
  WEFT_ATOMIC_OP_(atomicMin, atomic_min, T)   \
  WEFT_ATOMIC_OP_(atomicMax, atomic_max, T)   \
  WEFT_ATOMIC_CAS_(T)
#define WEFT_ATOMIC_INTEGER_(T)             \
  WEFT_ATOMIC_ANY_TYPE_(T)                  \
  WEFT_ATOMIC_OP_(atomicAnd, atomic_and, T) \
  WEFT_ATOMIC_OP_(atomicOr, atomic_or, T)   \
  WEFT_ATOMIC_OP_(atomicXor, atomic_xor, T)

WEFT_ATOMIC_INTEGER_(int)
WEFT_ATOMIC_INTEGER_(unsigned int)
WEFT_ATOMIC_INTEGER_(unsigned long)
WEFT_ATOMIC_INTEGER_(unsigned long long)
WEFT_ATOMIC_INTEGER_(long long)
WEFT_ATOMIC_ANY_TYPE_(float)
WEFT_ATOMIC_ANY_TYPE_(double)

WEFT_ATOMIC_OP_(atomicInc, atomic_inc, unsigned int)
WEFT_ATOMIC_OP_(atomicDec, atomic_dec, unsigned int)

#undef WEFT_ATOMIC_INTEGER_
#undef WEFT_ATOMIC_ANY_TYPE_
#undef WEFT_ATOMIC_CAS_
#undef WEFT_ATOMIC_OP_

// AMD's floating-point variants. "unsafe" (hardware fp atomics that may skip denormals or
// fine-grained memory) and "safe" (a CAS loop) are the same exact operation here.
#define WEFT_ATOMIC_FP_EXTRAS_(T)                      \
  inline T unsafeAtomicAdd(T* address, T value) {      \
    return ::weft::detail::atomic_add(address, value); \
  }                                                    \
  inline T safeAtomicAdd(T* address, T value) {        \
    return ::weft::detail::atomic_add(address, value); \
  }                                                    \
  inline T unsafeAtomicMin(T* address, T value) {      \
    return ::weft::detail::atomic_min(address, value); \
  }                                                    \
  inline T safeAtomicMin(T* address, T value) {        \
    return ::weft::detail::atomic_min(address, value); \
  }                                                    \
  inline T unsafeAtomicMax(T* address, T value) {      \
    return ::weft::detail::atomic_max(address, value); \
  }                                                    \
  inline T safeAtomicMax(T* address, T value) { return ::weft::detail::atomic_max(address, value); }
WEFT_ATOMIC_FP_EXTRAS_(float)
WEFT_ATOMIC_FP_EXTRAS_(double)
#undef WEFT_ATOMIC_FP_EXTRAS_

inline void atomicAddNoRet(float* address, float value) {
  ::weft::detail::atomic_add(address, value);
}

// Clang's __hip_atomic_* builtins, which AMD's headers and some programs call directly. The
// memory order is honoured (GCC treats an order it cannot see at compile time as seq_cst);
// the scope is accepted and, as above, needs nothing. The value converts to the pointee's type,
// as the builtins' operand does. Clang (15 and later) has them as builtins even in host code.
#if !(defined(__clang__) && __has_builtin(__hip_atomic_load))
template <typename T>
inline T __hip_atomic_load(T* address, int order, int /*scope*/) {
  T value;
  __atomic_load(address, &value, order);
  return value;
}
template <typename T, typename U>
inline void __hip_atomic_store(T* address, U value, int order, int /*scope*/) {
  T v = static_cast<T>(value);
  __atomic_store(address, &v, order);
}
template <typename T, typename U>
inline T __hip_atomic_exchange(T* address, U value, int order, int /*scope*/) {
  T v = static_cast<T>(value), old;
  __atomic_exchange(address, &v, &old, order);
  return old;
}
template <typename T, typename U>
inline bool __hip_atomic_compare_exchange_strong(T* address, T* expected, U desired, int success,
                                                 int failure, int /*scope*/) {
  T d = static_cast<T>(desired);
  return __atomic_compare_exchange(address, expected, &d, false, success, failure);
}
template <typename T, typename U>
inline bool __hip_atomic_compare_exchange_weak(T* address, T* expected, U desired, int success,
                                               int failure, int /*scope*/) {
  T d = static_cast<T>(desired);
  return __atomic_compare_exchange(address, expected, &d, true, success, failure);
}
template <typename T, typename U>
inline T __hip_atomic_fetch_add(T* address, U value, int order, int /*scope*/) {
  if constexpr (std::is_integral_v<T>)
    return __atomic_fetch_add(address, static_cast<T>(value), order);
  else return ::weft::detail::atomic_add(address, static_cast<T>(value));
}
template <typename T, typename U>
inline T __hip_atomic_fetch_sub(T* address, U value, int order, int /*scope*/) {
  if constexpr (std::is_integral_v<T>)
    return __atomic_fetch_sub(address, static_cast<T>(value), order);
  else return ::weft::detail::atomic_sub(address, static_cast<T>(value));
}
template <typename T, typename U>
inline T __hip_atomic_fetch_and(T* address, U value, int order, int /*scope*/) {
  return __atomic_fetch_and(address, static_cast<T>(value), order);
}
template <typename T, typename U>
inline T __hip_atomic_fetch_or(T* address, U value, int order, int /*scope*/) {
  return __atomic_fetch_or(address, static_cast<T>(value), order);
}
template <typename T, typename U>
inline T __hip_atomic_fetch_xor(T* address, U value, int order, int /*scope*/) {
  return __atomic_fetch_xor(address, static_cast<T>(value), order);
}
template <typename T, typename U>
inline T __hip_atomic_fetch_min(T* address, U value, int /*order*/, int /*scope*/) {
  return ::weft::detail::atomic_min(address, static_cast<T>(value));
}
template <typename T, typename U>
inline T __hip_atomic_fetch_max(T* address, U value, int /*order*/, int /*scope*/) {
  return ::weft::detail::atomic_max(address, static_cast<T>(value));
}
#endif  // Clang's builtins
#if defined(__clang__) && __has_builtin(__hip_atomic_fetch_add) && \
    !__has_builtin(__hip_atomic_fetch_sub)
// clang-15 (weftcc's HIP mode) has the other builtins but not fetch_sub: a fetch_add of the
// negated operand (modular for unsigned types, as a subtraction). A macro, because the
// builtin wants its order and scope as constants.
#define __hip_atomic_fetch_sub(address, value, order, scope) \
  __hip_atomic_fetch_add((address), -(value), (order), (scope))
#endif

#include <hip/weft/device/hd_end.h>

#endif  // WEFT_HIP_DEVICE_ATOMICS_H
