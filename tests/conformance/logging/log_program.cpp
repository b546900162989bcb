// SPDX-License-Identifier: MIT
// A fixed sequence of HIP calls, successes and failures, printing every result
// code and the data it computed to stdout. check_logging.py runs it with and
// without AMD_LOG_LEVEL/AMD_LOG_MASK and requires the same stdout each time
// (logging never changes results), then checks the log lines on stderr.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <thread>
#include <vector>

__global__ void scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

static void report(const char* what, hipError_t e) {
  std::printf("%s -> %d\n", what, static_cast<int>(e));
}

int main() {
  // The CPU agent, which weft lists last: the kernel below is compiled for the host.
  int count = 0;
  report("hipGetDeviceCount", hipGetDeviceCount(&count));
  const int cpu = count - 1;
  report("hipSetDevice(cpu)", hipSetDevice(cpu));
  report("hipSetDevice(99)", hipSetDevice(99));
  report("hipGetLastError", hipGetLastError());
  report("hipGetLastError again", hipGetLastError());

  char name[256];
  report("hipDeviceGetName", hipDeviceGetName(name, sizeof name, cpu));

  const int n = 1000;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = float(i);
  float* device = nullptr;
  report("hipMalloc", hipMalloc(&device, n * sizeof(float)));
  report("hipMalloc(null)", hipMalloc(nullptr, 16));
  report("hipMemcpy H2D", hipMemcpy(device, host.data(), n * sizeof(float), hipMemcpyHostToDevice));
  report("hipMemcpy bad kind", hipMemcpy(device, host.data(), 4, static_cast<hipMemcpyKind>(77)));
  hipLaunchKernelGGL(scale, dim3((n + 127) / 128), dim3(128), 0, 0, device, 3.0f, n);
  report("launch", hipGetLastError());
  report("hipDeviceSynchronize", hipDeviceSynchronize());
  report("hipMemcpy D2H", hipMemcpy(host.data(), device, n * sizeof(float), hipMemcpyDeviceToHost));
  double sum = 0;
  for (float v : host) sum += v;
  std::printf("sum %.1f\n", sum);

  // A second thread: its lines carry its own thread id.
  hipError_t from_thread = hipErrorUnknown;
  std::thread worker([&] { from_thread = hipMemset(device, 0, n * sizeof(float)); });
  worker.join();
  report("hipMemset (thread)", from_thread);
  report("hipFree", hipFree(device));
  report("hipFree(bad)", hipFree(reinterpret_cast<void*>(0x10)));
  report("hipPeekAtLastError", hipPeekAtLastError());
  return 0;
}
