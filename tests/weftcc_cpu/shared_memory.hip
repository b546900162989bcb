// SPDX-License-Identifier: MIT
// Shared memory in the x86_64 image: static __shared__ arrays are per block (blocks run
// at once on several workers), extern __shared__ arrays (several names, several types,
// HIP_DYNAMIC_SHARED) all start at the block's dynamic shared memory, sized by the launch.
#include "check.h"

#include <vector>

template <typename T>
__global__ void block_sum(const T* in, T* out) {
  static __shared__ T partial[256];
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// Reverses each block's slice through dynamic shared memory; the second view and the
// HIP_DYNAMIC_SHARED one must alias the first.
__global__ void reverse(const int* in, int* out, int* alias_ok) {
  extern __shared__ int dyn_ints[];
  extern __shared__ unsigned char dyn_bytes[];
  HIP_DYNAMIC_SHARED(int, dyn_macro)
  const unsigned n = blockDim.x;
  dyn_ints[threadIdx.x] = in[blockIdx.x * n + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * n + threadIdx.x] = dyn_ints[n - 1 - threadIdx.x];
  if (threadIdx.x == 0)
    alias_ok[blockIdx.x] = static_cast<void*>(dyn_bytes) == static_cast<void*>(dyn_ints) &&
                           dyn_macro == dyn_ints;
}

// The largest dynamic shared memory the CPU agent allows, touched end to end.
__global__ void big(unsigned* out, unsigned words) {
  extern __shared__ unsigned words_shared[];
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) words_shared[i] = i * 3u;
  __syncthreads();
  unsigned sum = 0;
  for (unsigned i = 0; i < words; ++i) sum += words_shared[i];
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

int main() {
  const int blocks = 64, threads = 256;
  std::vector<double> h(blocks * threads);
  for (size_t i = 0; i < h.size(); ++i) h[i] = double(i % 97) + 0.5;
  double *din, *dout;
  HIP_OK(hipMalloc(&din, h.size() * sizeof(double)));
  HIP_OK(hipMalloc(&dout, blocks * sizeof(double)));
  HIP_OK(hipMemcpy(din, h.data(), h.size() * sizeof(double), hipMemcpyHostToDevice));
  block_sum<<<blocks, threads>>>(din, dout);
  std::vector<double> sums(blocks);
  HIP_OK(hipMemcpy(sums.data(), dout, blocks * sizeof(double), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    double s = 0;
    for (int t = 0; t < threads; ++t) s += h[b * threads + t];
    CHECK(sums[b] == s);
  }

  const int rb = 16, rt = 128;
  std::vector<int> hi(rb * rt);
  for (size_t i = 0; i < hi.size(); ++i) hi[i] = int(i * 7 + 1);
  int *ri, *ro, *ok;
  HIP_OK(hipMalloc(&ri, hi.size() * sizeof(int)));
  HIP_OK(hipMalloc(&ro, hi.size() * sizeof(int)));
  HIP_OK(hipMalloc(&ok, rb * sizeof(int)));
  HIP_OK(hipMemcpy(ri, hi.data(), hi.size() * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(reverse, dim3(rb), dim3(rt), rt * sizeof(int), 0, ri, ro, ok);
  std::vector<int> out(hi.size()), oks(rb);
  HIP_OK(hipMemcpy(out.data(), ro, out.size() * sizeof(int), hipMemcpyDeviceToHost));
  HIP_OK(hipMemcpy(oks.data(), ok, rb * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < rb; ++b) {
    CHECK(oks[b] == 1);
    for (int t = 0; t < rt; ++t) CHECK(out[b * rt + t] == hi[b * rt + rt - 1 - t]);
  }

  int max_shared = 0;
  HIP_OK(hipDeviceGetAttribute(&max_shared, hipDeviceAttributeMaxSharedMemoryPerBlock, 0));
  const unsigned words = unsigned(max_shared) / 4;
  unsigned* bo;
  HIP_OK(hipMalloc(&bo, 8 * sizeof(unsigned)));
  big<<<8, 64, words * 4>>>(bo, words);
  std::vector<unsigned> bs(8);
  HIP_OK(hipMemcpy(bs.data(), bo, bs.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  unsigned expect = 0;
  for (unsigned i = 0; i < words; ++i) expect += i * 3u;
  for (unsigned v : bs) CHECK(v == expect);
  // More than the agent has is refused at launch.
  big<<<1, 64, words * 4 + 4>>>(bo, words);
  CHECK(hipGetLastError() != hipSuccess);
  HIP_OK(hipDeviceSynchronize());
  return finish("weftcc_cpu shared_memory");
}
