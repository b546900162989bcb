// SPDX-License-Identifier: MIT
// Kernels for the NVIDIA driver tests, built by nvcc into a cubin, a fatbin and
// PTX (tests/drivers/cuda/meson.build). extern "C" keeps the names unmangled.
#include <cstdint>

extern "C" __global__ void empty_kernel() {}

extern "C" __global__ void fill_index(unsigned* out, unsigned base, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = base + i;
}

// Arguments of every size and alignment, to check packing: c@0 d@8 s@16 p@24 q@32 ll@40.
extern "C" __global__ void mixed_args(char c, double d, short s, long long* out_i, double* out_d,
                                      long long ll) {
  out_i[0] = c;
  out_i[1] = s;
  out_i[2] = ll;
  out_d[0] = d;
}

struct Big {
  int values[17];
};

extern "C" __global__ void big_struct(Big b, int* out) {
  int sum = 0;
  for (int i = 0; i < 17; ++i) sum += b.values[i] * (i + 1);
  *out = sum;
}

// Spins until *flag >= value (the host releases it), then writes 1 to *done.
extern "C" __global__ void wait_flag(volatile unsigned* flag, unsigned value, unsigned* done) {
  while (*flag < value) {
  }
  *done = 1;
}

// Uses `n` words of dynamic shared memory (more than 48 KiB in the test).
extern "C" __global__ void dynamic_shared(unsigned* out, unsigned n) {
  extern __shared__ unsigned scratch[];
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) scratch[i] = i * 3u;
  __syncthreads();
  unsigned sum = 0;
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) sum += scratch[n - 1 - i];
  atomicAdd(out, sum);
}

// Busy for about `ns` nanoseconds of the GPU's global timer.
extern "C" __global__ void sleep_ns(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

// Writes through a wild pointer: CUDA_ERROR_ILLEGAL_ADDRESS at the next sync.
extern "C" __global__ void fault(int* bad) { *(volatile int*)bad = 1; }

__device__ int module_global = 1234;

extern "C" __global__ void read_global(int* out) { *out = module_global; }
