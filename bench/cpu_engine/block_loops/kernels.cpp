// SPDX-License-Identifier: MIT
// bench_cpu_kernels' kernels once more, written on the CPU device markers and built
// with clang++-15 -O3 -march=native and the block_loops pass into a weft CPU code
// object (docs/code-objects.md), loaded by the bench with hipModuleLoad. Until
// weftcc's CPU image path is in main, this file plays its part: the markers'
// definitions and the entries (kernarg unpacking, the block loop) are written here.
// The entries ask for the pass's range form (one call runs the worker's whole range of
// blocks); built with -DBL_ONE_BLOCK they ask only for the one-block form (the entry
// loops over the blocks), so both forms of one pass can be compared.
#define WEFT_CPU_CODE_OBJECT_ABI_ONLY
#include <hip/weft/cpu_code_object.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <utility>

namespace {
thread_local weftKernelContext* t_ctx;
thread_local uint32_t t_block[3];
}  // namespace

// The markers. A kernel the pass rewrote only reads the block-uniform ones; one it
// left alone could not run here (there are no fibers in this object).
extern "C" {
uint32_t __weft_cpu_block_idx(uint32_t d) { return d < 3 ? t_block[d] : 0; }
uint32_t __weft_cpu_block_dim(uint32_t d) {
  return d == 0 ? t_ctx->blockDim.x : d == 1 ? t_ctx->blockDim.y : d == 2 ? t_ctx->blockDim.z : 1;
}
uint32_t __weft_cpu_grid_dim(uint32_t d) {
  return d == 0 ? t_ctx->gridDim.x : d == 1 ? t_ctx->gridDim.y : d == 2 ? t_ctx->gridDim.z : 1;
}
void* __weft_cpu_dynamic_shared(void) { return t_ctx->dynamicShared; }
uint64_t __weft_cpu_block_range(uint32_t which) {
  return which == 0 ? t_ctx->blockBegin : t_ctx->blockEnd;
}
int __weft_cpu_block_enter(uint32_t x, uint32_t y, uint32_t z) {
  if (__atomic_load_n(t_ctx->stop, __ATOMIC_RELAXED)) return 1;  // another block failed
  t_block[0] = x;
  t_block[1] = y;
  t_block[2] = z;
  return 0;
}
[[noreturn]] static void needs_fibers() {
  std::fprintf(stderr, "bench block_loops object: a kernel was not rewritten by the pass\n");
  std::abort();
}
uint32_t __weft_cpu_thread_idx(uint32_t) { needs_fibers(); }
void __weft_cpu_barrier(void) { needs_fibers(); }
uint64_t __weft_cpu_warp_read(uint64_t, uint32_t) { needs_fibers(); }
int __weft_cpu_kernel_is_whole_block(const void*);
int __weft_cpu_kernel_runs_block_ranges(const void*);
}

namespace {

inline uint32_t tid_x() { return __weft_cpu_thread_idx(0); }
inline uint32_t tid_y() { return __weft_cpu_thread_idx(1); }
inline uint32_t bid_x() { return __weft_cpu_block_idx(0); }
inline uint32_t bid_y() { return __weft_cpu_block_idx(1); }
inline uint32_t bdim_x() { return __weft_cpu_block_dim(0); }
inline void syncthreads() { __weft_cpu_barrier(); }
inline uint32_t lane_id() { return tid_x() % 32; }
inline float shfl_down(float v, unsigned delta) {
  uint32_t bits, lane = lane_id();
  std::memcpy(&bits, &v, 4);
  bits = uint32_t(__weft_cpu_warp_read(bits, lane + delta < 32 ? lane + delta : lane));
  std::memcpy(&v, &bits, 4);
  return v;
}

void vector_add(const float* a, const float* b, float* c, int n) {
  int i = int(bid_x() * bdim_x() + tid_x());
  if (i < n) c[i] = a[i] + b[i];
}

void saxpy(float alpha, const float* x, float* y, int n) {
  int i = int(bid_x() * bdim_x() + tid_x());
  if (i < n) y[i] = alpha * x[i] + y[i];
}

thread_local float t_partial[256];  // __shared__: per block, and one block at a time per worker
void block_sum(const float* in, float* out) {
  float* partial = t_partial;
  unsigned t = tid_x();
  partial[t] = in[bid_x() * bdim_x() + t];
  syncthreads();
  for (unsigned s = bdim_x() / 2; s > 0; s /= 2) {
    if (t < s) partial[t] += partial[t + s];
    syncthreads();
  }
  if (t == 0) out[bid_x()] = partial[0];
}

void warp_sum(const float* in, float* out) {
  float v = in[bid_x() * bdim_x() + tid_x()];
  for (int o = 16; o > 0; o /= 2) v += shfl_down(v, unsigned(o));
  if (lane_id() == 0) out[(bid_x() * bdim_x() + tid_x()) / 32] = v;
}

constexpr int kTile = 16;
thread_local float t_As[kTile][kTile], t_Bs[kTile][kTile];
void sgemm(const float* A, const float* B, float* C, int n) {
  auto& As = t_As;
  auto& Bs = t_Bs;
  int tx = int(tid_x()), ty = int(tid_y());
  int row = int(bid_y()) * kTile + ty, col = int(bid_x()) * kTile + tx;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += kTile) {
    As[ty][tx] = A[row * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    syncthreads();
    for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
    syncthreads();
  }
  C[row * n + col] = acc;
}

void empty_kernel() {}

// ---- entries and records (what weftcc's CPU image generates) ----

template <typename... P>
struct Args {
  static constexpr size_t kCount = sizeof...(P);
  static constexpr std::array<weftCpuKernelArg, kCount> layout() {
    std::array<weftCpuKernelArg, kCount> out{};
    uint32_t sizes[] = {uint32_t(sizeof(P))..., 0}, aligns[] = {uint32_t(alignof(P))..., 1};
    uint32_t at = 0;
    for (size_t i = 0; i < kCount; ++i) {
      at = (at + aligns[i] - 1) / aligns[i] * aligns[i];
      out[i] = {at, sizes[i], aligns[i], 0};
      at += sizes[i];
    }
    return out;
  }
  static constexpr std::array<weftCpuKernelArg, kCount> kArgs = layout();
  static constexpr uint32_t size() {
    return kCount ? kArgs[kCount - 1].offset + kArgs[kCount - 1].size : 0;
  }
};

template <typename T>
struct Entry;
template <typename... P>
struct Entry<void (*)(P...)> {
  template <void (*K)(P...), size_t... I>
  static void run(weftKernelContext* ctx, void* kernarg, std::index_sequence<I...>) {
    std::tuple<P...> args;
    ((std::memcpy(&std::get<I>(args), static_cast<char*>(kernarg) + Args<P...>::kArgs[I].offset,
                  sizeof(P))),
     ...);
    t_ctx = ctx;
#ifndef BL_ONE_BLOCK
    if (__weft_cpu_kernel_runs_block_ranges(reinterpret_cast<const void*>(K)))
      return K(std::get<I>(args)...);
#endif
    if (!__weft_cpu_kernel_is_whole_block(reinterpret_cast<const void*>(K))) needs_fibers();
    const uint64_t gx = ctx->gridDim.x, gy = ctx->gridDim.y;
    for (uint64_t b = ctx->blockBegin; b < ctx->blockEnd; ++b) {
      if (__atomic_load_n(ctx->stop, __ATOMIC_RELAXED)) return;
      t_block[0] = uint32_t(b % gx);
      t_block[1] = uint32_t(b / gx % gy);
      t_block[2] = uint32_t(b / (gx * gy));
      K(std::get<I>(args)...);
    }
  }
  template <void (*K)(P...)>
  static void entry(weftKernelContext* ctx, void* kernarg) {
    run<K>(ctx, kernarg, std::index_sequence_for<P...>{});
  }
  template <void (*K)(P...)>
  static constexpr weftCpuKernelRecord record(const char* name) {
    return {name,      reinterpret_cast<const void*>(K),
            &entry<K>, Args<P...>::size(),
            8,         0,
            1024,      uint32_t(sizeof...(P)),
            0,         sizeof...(P) ? Args<P...>::kArgs.data() : nullptr};
  }
};

#define BL_RECORD(k) Entry<decltype(&k)>::record<&k>(#k)
const weftCpuKernelRecord kRecords[] = {
    BL_RECORD(vector_add), BL_RECORD(saxpy), BL_RECORD(block_sum),
    BL_RECORD(warp_sum),   BL_RECORD(sgemm), BL_RECORD(empty_kernel),
};

}  // namespace

extern "C" __attribute__((visibility("default")))
const weftCpuCodeObject weft_cpu_code_object = {WEFT_CPU_CODE_OBJECT_MAGIC,
                                                WEFT_CPU_CODE_OBJECT_VERSION,
                                                WEFT_KERNEL_ABI_VERSION,
                                                sizeof(weftCpuKernelRecord),
                                                kRecords,
                                                kRecords + sizeof(kRecords) / sizeof(kRecords[0])};
