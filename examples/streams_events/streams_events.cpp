// SPDX-License-Identifier: MIT
// Two streams working at once: each copies its half of the input to the device,
// runs a kernel and copies back; events time the whole and each stream, and a
// cross-stream wait makes the final reduction start only after both halves.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    hipError_t err_ = (call);                                                  \
    if (err_ != hipSuccess) {                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #call, hipGetErrorString(err_)); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__global__ void scale_and_shift(float* data, int n, float scale, float shift, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = data[i];
  for (int r = 0; r < rounds; ++r) v = v * scale + shift;  // enough work to overlap
  data[i] = v;
}

__global__ void block_sums(const float* data, float* sums, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? data[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

int main() {
  const int n = 1 << 20, half = n / 2, threads = 256, rounds = 64;
  std::vector<float> host(n, 1.0f);
  float *device_data, *device_sums;
  CHECK(hipMalloc(&device_data, n * sizeof(float)));
  CHECK(hipMalloc(&device_sums, (n / threads) * sizeof(float)));

  hipStream_t streams[2];
  hipEvent_t start, stop, done[2];
  for (auto& s : streams) CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  for (auto& e : done) CHECK(hipEventCreate(&e));

  CHECK(hipEventRecord(start, streams[0]));
  CHECK(hipStreamWaitEvent(streams[1], start, 0));
  for (int k = 0; k < 2; ++k) {
    float* part = device_data + k * half;
    CHECK(hipMemcpyAsync(part, host.data() + k * half, half * sizeof(float), hipMemcpyHostToDevice,
                         streams[k]));
    hipLaunchKernelGGL(scale_and_shift, dim3(half / threads), dim3(threads), 0, streams[k], part,
                       half, 1.0f, 1.0f, rounds);
    CHECK(hipGetLastError());
    CHECK(hipEventRecord(done[k], streams[k]));
  }
  // The reduction reads both halves: stream 0 waits for stream 1's event.
  CHECK(hipStreamWaitEvent(streams[0], done[1], 0));
  hipLaunchKernelGGL(block_sums, dim3(n / threads), dim3(threads), 0, streams[0], device_data,
                     device_sums, n);
  CHECK(hipGetLastError());
  CHECK(hipEventRecord(stop, streams[0]));
  CHECK(hipEventSynchronize(stop));

  float total_ms = 0, first_ms = 0, second_ms = 0;
  CHECK(hipEventElapsedTime(&total_ms, start, stop));
  CHECK(hipEventElapsedTime(&first_ms, start, done[0]));
  CHECK(hipEventElapsedTime(&second_ms, start, done[1]));

  std::vector<float> sums(n / threads);
  CHECK(hipMemcpy(sums.data(), device_sums, sums.size() * sizeof(float), hipMemcpyDeviceToHost));
  double total = 0;
  for (float s : sums) total += s;
  const double expected = double(n) * (1.0 + rounds);  // each element: 1 + rounds * 1

  std::printf("stream 0 half: %.3f ms, stream 1 half: %.3f ms, both + reduction: %.3f ms\n",
              first_ms, second_ms, total_ms);
  for (auto& s : streams) CHECK(hipStreamDestroy(s));
  for (auto& e : done) CHECK(hipEventDestroy(e));
  CHECK(hipEventDestroy(start));
  CHECK(hipEventDestroy(stop));
  CHECK(hipFree(device_data));
  CHECK(hipFree(device_sums));
  if (total != expected || total_ms <= 0 || first_ms > total_ms || second_ms > total_ms) {
    std::printf("FAILED: sum %.1f (expected %.1f), times %.3f/%.3f/%.3f ms\n", total, expected,
                first_ms, second_ms, total_ms);
    return 1;
  }
  std::printf("streams_events: sum %.0f, PASSED\n", total);
  return 0;
}
