// SPDX-License-Identifier: MIT
// The program whose trace tests/trace/trace_test.cpp checks; run by it as a child
// with WEFT_TRACE set. Every result is checked on the host (exit 1 otherwise).
//
//   trace_workload streams   two threads on two streams (copies, fills, kernels,
//                            a cross-stream event wait), then a graph launch
//   trace_workload window    kernels before, inside and after a
//                            hipProfilerStart/Stop window
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <latch>
#include <thread>
#include <vector>

namespace {

#define CHECK(call)                                                                            \
  do {                                                                                         \
    hipError_t e_ = (call);                                                                    \
    if (e_ != hipSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorName(e_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

__global__ void trace_scale(int* data, int n, int factor) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] *= factor;
}

__global__ void trace_add(int* data, int n, int addend) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] += addend;
}

__global__ void before_window(int* data) { data[0] = 1; }
__global__ void inside_window(int* data) { data[1] = 2; }
__global__ void after_window(int* data) { data[2] = 3; }

constexpr int kN = 4096;
constexpr int kBlock = 256;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "wrong result: %s\n", what);
    std::exit(1);
  }
}

int streams() {
  hipStream_t s1, s2;
  CHECK(hipStreamCreate(&s1));
  CHECK(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
  hipEvent_t produced;
  CHECK(hipEventCreate(&produced));
  int *a, *b;
  CHECK(hipMalloc(&a, kN * sizeof(int)));
  CHECK(hipMalloc(&b, kN * sizeof(int)));
  std::vector<int> input(kN), out_a(kN, -1), out_b(kN, -1);
  for (int i = 0; i < kN; ++i) input[i] = i;
  std::latch recorded(1);

  // Thread 1 on s1: a = input * 3, then records `produced`.
  std::thread producer([&] {
    CHECK(hipMemsetAsync(a, 0, kN * sizeof(int), s1));
    CHECK(hipMemcpyAsync(a, input.data(), kN * sizeof(int), hipMemcpyHostToDevice, s1));
    hipLaunchKernelGGL(trace_scale, dim3(kN / kBlock), dim3(kBlock), 0, s1, a, kN, 3);
    CHECK(hipGetLastError());
    CHECK(hipEventRecord(produced, s1));
    recorded.count_down();
    CHECK(hipMemcpyAsync(out_a.data(), a, kN * sizeof(int), hipMemcpyDeviceToHost, s1));
    CHECK(hipStreamSynchronize(s1));
  });
  // Thread 2 on s2: waits for `produced`, b = a + 5.
  std::thread consumer([&] {
    CHECK(hipMemsetD32Async(reinterpret_cast<hipDeviceptr_t>(b), 7, kN, s2));
    recorded.wait();
    CHECK(hipStreamWaitEvent(s2, produced, 0));
    CHECK(hipMemcpyAsync(b, a, kN * sizeof(int), hipMemcpyDeviceToDevice, s2));
    hipLaunchKernelGGL(trace_add, dim3(kN / kBlock), dim3(kBlock), 0, s2, b, kN, 5);
    CHECK(hipGetLastError());
    CHECK(hipMemcpyAsync(out_b.data(), b, kN * sizeof(int), hipMemcpyDeviceToHost, s2));
    CHECK(hipStreamSynchronize(s2));
  });
  producer.join();
  consumer.join();
  for (int i = 0; i < kN; ++i) {
    expect(out_a[i] == 3 * i, "a = input * 3");
    expect(out_b[i] == 3 * i + 5, "b = a + 5");
  }

  // A graph of a kernel and a copy, captured on s1 and launched twice on s2: a = a*2 + 1, twice.
  hipGraph_t graph;
  hipGraphExec_t exec;
  CHECK(hipStreamBeginCapture(s1, hipStreamCaptureModeGlobal));
  hipLaunchKernelGGL(trace_scale, dim3(kN / kBlock), dim3(kBlock), 0, s1, a, kN, 2);
  hipLaunchKernelGGL(trace_add, dim3(kN / kBlock), dim3(kBlock), 0, s1, a, kN, 1);
  CHECK(hipMemcpyAsync(out_a.data(), a, kN * sizeof(int), hipMemcpyDeviceToHost, s1));
  CHECK(hipStreamEndCapture(s1, &graph));
  CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  CHECK(hipGraphLaunch(exec, s2));
  CHECK(hipGraphLaunch(exec, s2));
  CHECK(hipStreamSynchronize(s2));
  for (int i = 0; i < kN; ++i)
    expect(out_a[i] == (3 * i * 2 + 1) * 2 + 1, "graph: a = (a*2+1)*2+1");

  // The null stream too: a synchronous copy.
  CHECK(hipMemcpy(out_b.data(), a, kN * sizeof(int), hipMemcpyDeviceToHost));
  expect(out_b == out_a, "hipMemcpy on the null stream");

  CHECK(hipGraphExecDestroy(exec));
  CHECK(hipGraphDestroy(graph));
  CHECK(hipEventDestroy(produced));
  CHECK(hipFree(a));
  CHECK(hipFree(b));
  CHECK(hipStreamDestroy(s1));
  CHECK(hipStreamDestroy(s2));
  return 0;
}

int window() {
  int* d;
  CHECK(hipMalloc(&d, 4 * sizeof(int)));
  CHECK(hipMemset(d, 0, 4 * sizeof(int)));
  hipLaunchKernelGGL(before_window, dim3(1), dim3(1), 0, 0, d);
  CHECK(hipDeviceSynchronize());
  CHECK(hipProfilerStart());
  hipLaunchKernelGGL(inside_window, dim3(1), dim3(1), 0, 0, d);
  CHECK(hipDeviceSynchronize());
  CHECK(hipProfilerStop());
  hipLaunchKernelGGL(after_window, dim3(1), dim3(1), 0, 0, d);
  int host[4] = {};
  CHECK(hipMemcpy(host, d, sizeof host, hipMemcpyDeviceToHost));
  expect(host[0] == 1 && host[1] == 2 && host[2] == 3 && host[3] == 0, "window kernels");
  CHECK(hipFree(d));
  return 0;
}

__global__ void probe(int* out) { *out = 42; }

// The agent to use: WEFT_TEST_DEVICE as the other tests read it, else the last
// one (the CPU agent comes after GPU agents). Exits 77 (skip) when that agent
// cannot run this program's single-source kernels.
void select_device() {
  int count = 0;
  CHECK(hipGetDeviceCount(&count));
  const char* env = std::getenv("WEFT_TEST_DEVICE");
  CHECK(hipSetDevice(env && *env ? std::atoi(env) : count - 1));
  int* out;
  CHECK(hipMalloc(&out, sizeof(int)));
  hipLaunchKernelGGL(probe, dim3(1), dim3(1), 0, 0, out);
  if (hipGetLastError() != hipSuccess || hipDeviceSynchronize() != hipSuccess) {
    std::fprintf(stderr, "SKIPPED: the agent cannot run single-source kernels\n");
    std::exit(77);
  }
  CHECK(hipFree(out));
}

}  // namespace

int main(int argc, char** argv) {
  select_device();
  if (argc == 2 && std::strcmp(argv[1], "streams") == 0) return streams();
  if (argc == 2 && std::strcmp(argv[1], "window") == 0) return window();
  std::fprintf(stderr, "usage: %s streams|window\n", argv[0]);
  return 2;
}
