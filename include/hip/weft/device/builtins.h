// SPDX-License-Identifier: MIT
// The shared part of the device language under clang's HIP mode, written once on top of
// the primitive layer (README.md in this folder): the GPU thread's coordinates, warpSize,
// barriers, fences, warp operations, clocks, assert, dynamic shared memory.
#ifndef WEFT_HIP_DEVICE_BUILTINS_H
#define WEFT_HIP_DEVICE_BUILTINS_H

#include <hip/hip_runtime_api.h>
#include <hip/hip_vector_types.h>
#include <hip/weft/kernel_abi.h>

#include <string.h>

#include <type_traits>

// ---- the GPU thread's coordinates ----
// Objects, as in AMD's headers (a struct member named gridDim still compiles), whose x/y/z
// are properties read through the primitives: `threadIdx.x` is an unsigned int.
#define WEFT_DEVICE_COORDINATE_(type, primitive)                                                   \
  struct type {                                                                                    \
    __declspec(property(get = get_x)) unsigned int x;                                              \
    __declspec(property(get = get_y)) unsigned int y;                                              \
    __declspec(property(get = get_z)) unsigned int z;                                              \
    static __device__ __forceinline__ unsigned int get_x() { return primitive(0); }                \
    static __device__ __forceinline__ unsigned int get_y() { return primitive(1); }                \
    static __device__ __forceinline__ unsigned int get_z() { return primitive(2); }                \
    __device__ __forceinline__ operator dim3() const { return dim3(get_x(), get_y(), get_z()); }   \
    __device__ __forceinline__ operator uint3() const { return uint3{get_x(), get_y(), get_z()}; } \
  }
WEFT_DEVICE_COORDINATE_(__weft_thread_idx_t, __weft_thread_idx);
WEFT_DEVICE_COORDINATE_(__weft_block_idx_t, __weft_block_idx);
WEFT_DEVICE_COORDINATE_(__weft_block_dim_t, __weft_block_dim);
WEFT_DEVICE_COORDINATE_(__weft_grid_dim_t, __weft_grid_dim);
#undef WEFT_DEVICE_COORDINATE_

// Never defined: every use goes through the static getters.
extern const __device__ __weft_thread_idx_t threadIdx;
extern const __device__ __weft_block_idx_t blockIdx;
extern const __device__ __weft_block_dim_t blockDim;
extern const __device__ __weft_grid_dim_t gridDim;

static constexpr int warpSize = WEFT_DEVICE_WARP_SIZE;

// ---- dynamic shared memory, kernel names ----
// Like AMD's macro, a complete declaration (no ';' needed after it), of a pointer to the
// block's dynamic shared memory rather than AMD's `extern __shared__ type var[]`: the same
// bytes as any extern __shared__ array, and a template kernel may use it with different
// types (two instances declaring one extern array with two element types do not compile).
#define HIP_DYNAMIC_SHARED(type, var) type* var = static_cast<type*>(__weft_dynamic_shared());
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#define HIP_KERNEL_NAME(...) __VA_ARGS__

// ---- barriers and fences ----

#if !defined(__NVPTX__)  // a clang builtin there (bar.sync 0: the same barrier)
__device__ __forceinline__ void __syncthreads() { __weft_barrier(); }
#endif
__device__ __forceinline__ int __syncthreads_count(int predicate) {
  return __weft_barrier_reduce(predicate, WEFT_REDUCE_COUNT);
}
__device__ __forceinline__ int __syncthreads_and(int predicate) {
  return __weft_barrier_reduce(predicate, WEFT_REDUCE_AND);
}
__device__ __forceinline__ int __syncthreads_or(int predicate) {
  return __weft_barrier_reduce(predicate, WEFT_REDUCE_OR);
}
__device__ __forceinline__ void __threadfence_block() {
  __weft_fence(__HIP_MEMORY_SCOPE_WORKGROUP);
}
__device__ __forceinline__ void __threadfence() { __weft_fence(__HIP_MEMORY_SCOPE_AGENT); }
__device__ __forceinline__ void __threadfence_system() { __weft_fence(__HIP_MEMORY_SCOPE_SYSTEM); }

// ---- warp operations ----
// Every form reduces to one primitive call per operation: warp_read for the shuffles
// (the source lane computed here, the caller's own lane when the source falls outside its
// width-sized segment), warp_ballot for the votes. All are force-inlined: on the CPU image
// one inlined copy is one call site, which is how lanes are matched (docs/cpu-engine.md).

namespace weft::device {
template <typename T>
__device__ __forceinline__ uint64_t to_bits(T value) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                "warp operations take values of at most 8 bytes");
  uint64_t bits = 0;
  __builtin_memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <typename T>
__device__ __forceinline__ T from_bits(uint64_t bits) {
  T value;
  __builtin_memcpy(&value, &bits, sizeof(T));
  return value;
}
template <typename T>
__device__ __forceinline__ T read_lane(T var, int src, unsigned lane, int width) {
  const int segment = int(lane & ~unsigned(width - 1));
  const uint32_t from = (src < segment || src >= segment + width) ? lane : uint32_t(src);
  return from_bits<T>(__weft_warp_read(to_bits(var), from));
}
}  // namespace weft::device

__device__ __forceinline__ unsigned __lane_id() { return __weft_lane_id(); }

template <typename T>
__device__ __forceinline__ T __shfl(T var, int src_lane, int width = warpSize) {
  const unsigned lane = __lane_id();
  const int segment = int(lane & ~unsigned(width - 1));
  return ::weft::device::read_lane(var, segment + (src_lane & (width - 1)), lane, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_up(T var, unsigned delta, int width = warpSize) {
  const unsigned lane = __lane_id();
  return ::weft::device::read_lane(var, int(lane) - int(delta), lane, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_down(T var, unsigned delta, int width = warpSize) {
  const unsigned lane = __lane_id();
  return ::weft::device::read_lane(var, int(lane + delta), lane, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_xor(T var, int lane_mask, int width = warpSize) {
  const unsigned lane = __lane_id();
  return ::weft::device::read_lane(var, int(lane ^ unsigned(lane_mask)), lane, width);
}
__device__ __forceinline__ unsigned long long __ballot(int predicate) {
  return __weft_warp_ballot(predicate);
}
__device__ __forceinline__ int __any(int predicate) { return __weft_warp_ballot(predicate) != 0; }
__device__ __forceinline__ int __all(int predicate) { return __weft_warp_ballot(!predicate) == 0; }
__device__ __forceinline__ unsigned long long __activemask() { return __weft_warp_ballot(1); }
__device__ __forceinline__ void __syncwarp(unsigned long long = ~0ull) { __weft_warp_sync(); }
// CUDA-style _sync forms; the mask is implied by the lanes that arrive.
template <typename T>
__device__ __forceinline__ T __shfl_sync(unsigned long long, T var, int src, int width = warpSize) {
  return __shfl(var, src, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_up_sync(unsigned long long, T var, unsigned d,
                                            int width = warpSize) {
  return __shfl_up(var, d, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_down_sync(unsigned long long, T var, unsigned d,
                                              int width = warpSize) {
  return __shfl_down(var, d, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_xor_sync(unsigned long long, T var, int m,
                                             int width = warpSize) {
  return __shfl_xor(var, m, width);
}
__device__ __forceinline__ unsigned long long __ballot_sync(unsigned long long, int p) {
  return __weft_warp_ballot(p);
}
__device__ __forceinline__ int __any_sync(unsigned long long, int p) {
  return __weft_warp_ballot(p) != 0;
}
__device__ __forceinline__ int __all_sync(unsigned long long, int p) {
  return __weft_warp_ballot(!p) == 0;
}

// ---- clocks ----
// clock() is <ctime>'s: the CPU agent's is the C library's (hip/weft/device_clock.h says why),
// the GPU layers define it as the shader clock; __clock() is the device clock.
__device__ __forceinline__ long long clock64() { return __weft_clock64(); }
__device__ __forceinline__ long long __clock64() { return __weft_clock64(); }
__device__ __forceinline__ long long __clock() { return __weft_clock64(); }
__device__ __forceinline__ long long wall_clock64() { return __weft_wall_clock64(); }

// ---- assert in device passes: the launch reports hipErrorAssert ----
#if defined(__HIP_DEVICE_COMPILE__) && !defined(NDEBUG)
#include <assert.h>
#undef assert
#define assert(expr)             \
  ((expr) ? static_cast<void>(0) \
          : __weft_assert_fail(#expr, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif

#endif  // WEFT_HIP_DEVICE_BUILTINS_H
