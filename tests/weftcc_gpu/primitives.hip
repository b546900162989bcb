// SPDX-License-Identifier: MIT
// Kernels that use every primitive of the GPU device layers (include/hip/weft/
// device/nvptx.h, amdgcn.h) directly: weftcc's NVIDIA and AMD device steps must
// compile them (check_images.py), and cuda_weftcc runs them on an NVIDIA GPU and
// checks each result against the host. Each kernel is extern "C" except `scale`,
// whose mangled name (_Z5scaleIfEvPT_S0_i) must be the one every pass gives it.
// As hip/hip_runtime.h does, the layer is read inside a host+device region.
#pragma clang force_cuda_host_device begin
#if defined(__NVPTX__)
#include <hip/weft/device/nvptx.h>
#elif defined(__AMDGCN__)
#include <hip/weft/device/amdgcn.h>
#else
#error "primitives.hip is built for a GPU target only"
#endif
#pragma clang force_cuda_host_device end

#define KERNEL extern "C" __attribute__((global))

namespace {
__attribute__((device)) uint32_t global_id() {
  return __weft_block_idx(0) * __weft_block_dim(0) + __weft_thread_idx(0);
}
// The flat index of this thread in a 3-D grid of 3-D blocks.
__attribute__((device)) uint32_t flat_id() {
  uint32_t block =
      (__weft_block_idx(2) * __weft_grid_dim(1) + __weft_block_idx(1)) * __weft_grid_dim(0) +
      __weft_block_idx(0);
  uint32_t thread =
      (__weft_thread_idx(2) * __weft_block_dim(1) + __weft_thread_idx(1)) * __weft_block_dim(0) +
      __weft_thread_idx(0);
  return block * __weft_block_dim(0) * __weft_block_dim(1) * __weft_block_dim(2) + thread;
}
}  // namespace

// 12 words per thread: threadIdx, blockIdx, blockDim, gridDim (x, y, z each).
KERNEL void ids(uint32_t* out) {
  uint32_t* o = out + flat_id() * 12;
  for (uint32_t d = 0; d < 3; ++d) {
    o[d] = __weft_thread_idx(d);
    o[3 + d] = __weft_block_idx(d);
    o[6 + d] = __weft_block_dim(d);
    o[9 + d] = __weft_grid_dim(d);
  }
}

// 6 words per thread (1-D launch, full warps): lane id, the value of lane^1, of
// lane+1 (mod warp), the ballot of odd lanes (low 32 bits), the ballot of
// lane < 4 (all four set), and the high half of a 64-bit read of lane 3.
KERNEL void shuffles(uint32_t* out) {
  uint32_t g = global_id();
  uint32_t lane = __weft_lane_id();
  uint32_t* o = out + g * 6;
  o[0] = lane;
  o[1] = static_cast<uint32_t>(__weft_warp_read(g * 3 + 1, lane ^ 1));
  o[2] = static_cast<uint32_t>(__weft_warp_read(g * 3 + 1, (lane + 1) % WEFT_DEVICE_WARP_SIZE));
  o[3] = static_cast<uint32_t>(__weft_warp_ballot(lane & 1));
  o[4] = static_cast<uint32_t>(__weft_warp_ballot(lane < 4));
  uint64_t wide = (static_cast<uint64_t>(g) << 32) | 0x1234u;
  o[5] = static_cast<uint32_t>(__weft_warp_read(wide, 3) >> 32);
  __weft_warp_sync();
}

// Lanes 0..15 of each warp only: a source in the inactive upper half gives the
// caller its own value. out[g] = value read from lane + 16 (never active).
KERNEL void half_warp(uint32_t* out) {
  uint32_t g = global_id();
  uint32_t lane = __weft_lane_id();
  if (lane < 16) out[g] = static_cast<uint32_t>(__weft_warp_read(1000 + g, lane + 16));
}

// u: [0] add 1, [1] max of ids, [2] inc with limit 999, [3] CAS-loop add 2,
// [4] min of ids (starts high), [5] or of 1 << (id % 32), [6] system add 1,
// [7] add -1 (starts at the thread count), [8] and of ~(1 << (id % 32));
// l[0] add id (64-bit); f[0] add 0.5f, f[1] system add 0.25f.
KERNEL void atomics(uint32_t* u, unsigned long long* l, float* f) {
  uint32_t g = global_id();
  __weft_atomic_add(&u[0], 1u);
  __weft_atomic_max(&u[1], g);
  __weft_atomic_inc(&u[2], 999u);
  uint32_t seen = u[3];
  for (;;) {
    uint32_t old = __weft_atomic_cas(&u[3], seen, seen + 2);
    if (old == seen) break;
    seen = old;
  }
  __weft_atomic_min(&u[4], g);
  __weft_atomic_or(&u[5], 1u << (g % 32));
  __weft_atomic_add_system(&u[6], 1u);
  __weft_atomic_add(&u[7], ~0u);  // minus one
  __weft_atomic_and(&u[8], ~(1u << (g % 32)));
  __weft_atomic_add(&l[0], static_cast<unsigned long long>(g));
  __weft_atomic_add(&f[0], 0.5f);
  __weft_atomic_add_system(&f[1], 0.25f);
  __weft_fence(__HIP_MEMORY_SCOPE_AGENT);
}

// Per element: 6 float results and 6 double results of the libm layer.
KERNEL void math(const float* xf, float* yf, const double* xd, double* yd, int n) {
  int i = static_cast<int>(global_id());
  if (i >= n) return;
  float x = xf[i];
  yf[i * 6 + 0] = sinf(x);
  yf[i * 6 + 1] = expf(x);
  yf[i * 6 + 2] = powf(x, 1.5f);
  yf[i * 6 + 3] = sqrtf(x);
  yf[i * 6 + 4] = fmaf(x, 3.0f, 1.0f);
  int e = 0;
  yf[i * 6 + 5] = frexpf(x, &e) + static_cast<float>(e);
  double y = xd[i];
  yd[i * 6 + 0] = sin(y);
  yd[i * 6 + 1] = exp(y);
  yd[i * 6 + 2] = log1p(y);
  yd[i * 6 + 3] = atan2(y, 2.0);
  double s = 0, c = 0;
  sincos(y, &s, &c);
  yd[i * 6 + 4] = s * c;
  yd[i * 6 + 5] = cbrt(y) + ldexp(y, 3);
}

// One block: out[0] count of threads with tid % 3 == 0, out[1] and of tid < 1000,
// out[2] and of tid != 5, out[3] or of tid == 7, out[4] threads past the barrier.
KERNEL void barriers(int* out) {
  uint32_t t = __weft_thread_idx(0);
  int count = __weft_barrier_reduce(t % 3 == 0, WEFT_REDUCE_COUNT);
  int all_small = __weft_barrier_reduce(t < 1000, WEFT_REDUCE_AND);
  int none_five = __weft_barrier_reduce(t != 5, WEFT_REDUCE_AND);
  int any_seven = __weft_barrier_reduce(t == 7, WEFT_REDUCE_OR);
  __weft_barrier();
  if (t == 0) {
    out[0] = count;
    out[1] = all_small;
    out[2] = none_five;
    out[3] = any_seven;
  }
  __weft_barrier();
  __weft_atomic_add(&out[4], 1);
}

// Two clock reads around a short sleep: t[0] < t[1], t[2] < t[3] (wall clock),
// t[4] the wall clock's rate in kHz.
KERNEL void clocks(long long* t) {
  long long c0 = __weft_clock64(), w0 = __weft_wall_clock64();
  __weft_sleep_ns(20000);
  long long c1 = __weft_clock64(), w1 = __weft_wall_clock64();
  if (__weft_thread_idx(0) == 0)
    t[0] = c0, t[1] = c1, t[2] = w0, t[3] = w1, t[4] = __weft_wall_clock_khz();
}

// Dynamic shared memory: the primitive's base and the user's extern __shared__
// array are the same bytes. Block of 64, 256 bytes of dynamic shared memory.
extern __attribute__((shared)) uint32_t user_dynamic[];
KERNEL void dynamic_shared(uint32_t* out) {
  uint32_t t = __weft_thread_idx(0);
  static_cast<uint32_t*>(__weft_dynamic_shared())[t] = t * 7;
  __weft_barrier();
  out[t] = user_dynamic[63 - t];
}

// grid.sync() across 8 blocks: each block adds its id, syncs, and block 0's
// thread reads the total every block must see. out[b] = total seen by block b.
KERNEL void grid_sync(uint32_t* sum, uint32_t* out) {
  uint32_t b = __weft_block_idx(0);
  if (__weft_thread_idx(0) == 0) __weft_atomic_add(sum, b + 1);
  __weft_grid_sync();  // every thread, as grid.sync()
  if (__weft_thread_idx(0) == 0)
    out[b] = __hip_atomic_load(sum, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT) +
             (weftGridIsCooperative() ? 0u : 1000000u);
}

// printf and assert's failure path compile (not run by the tests).
KERNEL void report(int value, int fail) {
  if (value) printf("value %d from thread %u\n", value, __weft_thread_idx(0));
  if (fail) __weft_assert_fail("fail == 0", __FILE__, __LINE__, __func__);
  __weft_fence(__HIP_MEMORY_SCOPE_WORKGROUP);
  __weft_fence(__HIP_MEMORY_SCOPE_SYSTEM);
  float s = 0, c = 0;
  sincosf(static_cast<float>(value), &s, &c);
  double sp = 0, cp = 0;
  __weft_libm_sincospi(value * 0.25, &sp, &cp);
  if (fail > 1)
    printf("%f %f %f %f %f %f %f\n", s + c + nanf(""), __weft_fast_sinf(s) + __weft_fast_expf(c),
           __weft_libm_rsqrtf(c) + __weft_libm_erfinvf(0.5f),
           sp + cp + __weft_libm_norm3d(sp, cp, 1.0),
           __weft_libm_powi(cp, 3) + scalbn(sp, 2) + static_cast<double>(lround(sp)),
           tgammaf(c) + erfcf(s),
           __weft_libm_normcdf(sp) + __weft_libm_cyl_bessel_i0(cp) + jn(value, sp) + ynf(value, c));
}

template <typename T>
__attribute__((global)) void scale(T* p, T s, int n) {
  int i = static_cast<int>(global_id());
  if (i < n) p[i] *= s;
}
template __attribute__((global)) void scale<float>(float*, float, int);
