// SPDX-License-Identifier: MIT
// Every way a HIP program names the kernel it launches, each checked against
// results computed on the host: a kernel's name, a function-pointer variable, a
// template parameter, a template kernel deduced from the arguments,
// HIP_KERNEL_NAME, hipLaunchKernel with an argument array, hipExtLaunchKernelGGL,
// and graph capture of each. Also: threadIdx & co. are objects. Cases that launch a
// kernel skip on a device without an image for it (a g++ build on a GPU agent).
#include "hip_test.hpp"

#include <hip/hip_ext.h>

#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

namespace {

constexpr int kN = 1000;
constexpr int kBlock = 128;
constexpr int kGrid = (kN + kBlock - 1) / kBlock;

__global__ void fill_index(int* out, int n, int base) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = base + i;
}

template <typename T>
__global__ void scale(T* data, T factor, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] = data[i] * factor;
}

// Deduced from (float*, size_t): the parameter types are not the arguments' types.
template <typename T>
__global__ void add_index(T* data, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] += static_cast<T>(i);
}

template <typename T, int Stride>
__global__ void strided_set(T* data, T value, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * Stride;
  if (i < n) data[i] = value;
}

__global__ void with_default(int* out, int value = 7) { out[threadIdx.x] = value; }

namespace kernels {
__global__ void negate(int* data, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] = -data[i];
}
}  // namespace kernels

// threadIdx stays each GPU thread's own across barriers (fibers switch between them).
__global__ void ids_across_barriers(uint32_t* out) {
  uint32_t linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  uint32_t block = blockIdx.x + gridDim.x * blockIdx.y;
  uint32_t* mine = out + (block * blockDim.x * blockDim.y * blockDim.z + linear) * 3;
  for (int round = 0; round < 3; ++round) {
    __syncthreads();
    auto x = threadIdx.x;  // an unsigned int, as with AMD's compiler
    x += 0;
    mine[0] = x;
    mine[1] = threadIdx.y;
    mine[2] = threadIdx.z;
  }
}

template <class K>
void launch_through_parameter(K kernel, int* out, int base) {
  hipLaunchKernelGGL(kernel, dim3(kGrid), dim3(kBlock), 0, 0, out, kN, base);
}

struct DeviceBuffer {
  explicit DeviceBuffer(size_t bytes) { HIP_CHECK(hipMalloc(&ptr, bytes)); }
  ~DeviceBuffer() { (void)hipFree(ptr); }
  void* ptr = nullptr;
};

std::vector<int> read_ints(const void* d, int n) {
  std::vector<int> h(n);
  HIP_CHECK(hipMemcpy(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  return h;
}

void expect_index_fill(const void* d, int base) {
  std::vector<int> h = read_ints(d, kN);
  for (int i = 0; i < kN; ++i) REQUIRE(h[i] == base + i);
}

}  // namespace

static_assert(std::is_same_v<decltype(threadIdx.x), uint32_t>, "threadIdx.x is an unsigned int");
static_assert(std::is_convertible_v<decltype(blockDim), dim3>, "blockDim converts to dim3");

TEST_CASE("LaunchForms_name_and_pointer_variable") {
  if (!hip_test::kernels_supported()) return;
  DeviceBuffer buf(kN * sizeof(int));
  int* d = static_cast<int*>(buf.ptr);
  HIP_CHECK(hipGetLastError());
  hipLaunchKernelGGL(fill_index, dim3(kGrid), dim3(kBlock), 0, 0, d, kN, 5);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  expect_index_fill(d, 5);

  void (*fp)(int*, int, int) = fill_index;
  hipLaunchKernelGGL(fp, dim3(kGrid), dim3(kBlock), 0, 0, d, kN, 11);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  expect_index_fill(d, 11);

  // Parenthesised and qualified names, as programs write them.
  hipLaunchKernelGGL((fill_index), dim3(kGrid), dim3(kBlock), 0, 0, d, kN, 2);
  hipLaunchKernelGGL(kernels::negate, dim3(kGrid), dim3(kBlock), 0, 0, d, kN);
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> h = read_ints(d, kN);
  for (int i = 0; i < kN; ++i) REQUIRE(h[i] == -(2 + i));
}

TEST_CASE("LaunchForms_template_parameter") {
  if (!hip_test::kernels_supported()) return;
  DeviceBuffer buf(kN * sizeof(int));
  int* d = static_cast<int*>(buf.ptr);
  launch_through_parameter(fill_index, d, 100);
  HIP_CHECK(hipDeviceSynchronize());
  expect_index_fill(d, 100);
  launch_through_parameter(&fill_index, d, -3);
  HIP_CHECK(hipDeviceSynchronize());
  expect_index_fill(d, -3);
}

TEST_CASE("LaunchForms_deduced_template_kernels") {
  if (!hip_test::kernels_supported()) return;
  DeviceBuffer buf(kN * sizeof(double));
  std::vector<float> hf(kN);
  std::iota(hf.begin(), hf.end(), 1.0f);
  float* df = static_cast<float*>(buf.ptr);
  HIP_CHECK(hipMemcpy(df, hf.data(), kN * sizeof(float), hipMemcpyHostToDevice));
  // Deduced exactly: T = float from (float*, float, int).
  hipLaunchKernelGGL(scale, dim3(kGrid), dim3(kBlock), 0, 0, df, 2.5f, kN);
  // Deduced T = float, but n arrives as a size_t and is converted per call.
  size_t n = kN;
  hipLaunchKernelGGL(add_index, dim3(kGrid), dim3(kBlock), 0, 0, df, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<float> out(kN);
  HIP_CHECK(hipMemcpy(out.data(), df, kN * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) REQUIRE(out[i] == hf[i] * 2.5f + static_cast<float>(i));

  // The same template deduced for double.
  std::vector<double> hd(kN, 3.0);
  double* dd = static_cast<double*>(buf.ptr);
  HIP_CHECK(hipMemcpy(dd, hd.data(), kN * sizeof(double), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(scale, dim3(kGrid), dim3(kBlock), 0, 0, dd, 0.5, kN);
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<double> outd(kN);
  HIP_CHECK(hipMemcpy(outd.data(), dd, kN * sizeof(double), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) REQUIRE(outd[i] == 1.5);
}

TEST_CASE("LaunchForms_HIP_KERNEL_NAME_and_default_arguments") {
  if (!hip_test::kernels_supported()) return;
  DeviceBuffer buf(kN * sizeof(int));
  int* d = static_cast<int*>(buf.ptr);
  HIP_CHECK(hipMemset(d, 0, kN * sizeof(int)));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(strided_set<int, 4>), dim3(kGrid), dim3(kBlock), 0, 0, d, 9,
                     kN);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> h = read_ints(d, kN);
  for (int i = 0; i < kN; ++i) REQUIRE(h[i] == (i % 4 == 0 ? 9 : 0));

  hipLaunchKernelGGL(with_default, dim3(1), dim3(32), 0, 0, d);
  HIP_CHECK(hipDeviceSynchronize());
  h = read_ints(d, 32);
  for (int i = 0; i < 32; ++i) REQUIRE(h[i] == 7);
}

TEST_CASE("LaunchForms_hipLaunchKernel_argument_array") {
  if (!hip_test::kernels_supported()) return;
  DeviceBuffer buf(kN * sizeof(int));
  int* d = static_cast<int*>(buf.ptr);
  int n = kN, base = 40;
  void* args[] = {&d, &n, &base};
  // The kernel itself: its parameter types are known from its type.
  HIP_CHECK(hipLaunchKernel(fill_index, dim3(kGrid), dim3(kBlock), args, 0, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  expect_index_fill(d, 40);

  // Through the C entry point with a void*: fill_index was launched by name above.
  base = 77;
  HIP_CHECK(hipLaunchKernel(reinterpret_cast<const void*>(fill_index), dim3(kGrid), dim3(kBlock),
                            args, 0, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  expect_index_fill(d, 77);

  // Bad inputs: refused with a clear error, nothing launched.
  HIP_CHECK_ERROR(hipLaunchKernel(fill_index, dim3(kGrid), dim3(kBlock), nullptr, 0, nullptr),
                  hipErrorInvalidValue);
  void* missing[] = {&d, nullptr, &base};
  HIP_CHECK_ERROR(hipLaunchKernel(fill_index, dim3(kGrid), dim3(kBlock), missing, 0, nullptr),
                  hipErrorInvalidValue);
  (void)hipGetLastError();
}

namespace {
__global__ void never_launched_by_name(int* out) { out[0] = 1; }
}  // namespace

TEST_CASE("LaunchForms_hipLaunchKernel_unknown_void_pointer") {
  DeviceBuffer buf(sizeof(int));
  void* args[] = {&buf.ptr};
#if defined(__HIP__)
  // Built by weftcc (clang's HIP mode): every kernel is registered by the host pass, so
  // the runtime knows this one without a launch by name, as under hipcc.
  HIP_CHECK(hipLaunchKernel(reinterpret_cast<const void*>(never_launched_by_name), dim3(1), dim3(1),
                            args, 0, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  int one = 0;
  HIP_CHECK(hipMemcpy(&one, buf.ptr, sizeof one, hipMemcpyDeviceToHost));
  REQUIRE(one == 1);
  return;
#endif
  HIP_CHECK_ERROR(hipLaunchKernel(reinterpret_cast<const void*>(never_launched_by_name), dim3(1),
                                  dim3(1), args, 0, nullptr),
                  hipErrorInvalidDeviceFunction);
  HIP_CHECK_ERROR(hipGetLastError(), hipErrorInvalidDeviceFunction);
}

TEST_CASE("LaunchForms_hipExtLaunchKernelGGL_records_events") {
  if (!hip_test::kernels_supported()) return;
  DeviceBuffer buf(kN * sizeof(int));
  int* d = static_cast<int*>(buf.ptr);
  hipEvent_t start, stop;
  HIP_CHECK(hipEventCreate(&start));
  HIP_CHECK(hipEventCreate(&stop));
  hipExtLaunchKernelGGL(fill_index, dim3(kGrid), dim3(kBlock), 0, nullptr, start, stop, 0, d, kN,
                        21);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipEventSynchronize(stop));
  float ms = -1.0f;
  HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
  REQUIRE(ms >= 0.0f);
  expect_index_fill(d, 21);
  // Without events it is a plain launch.
  hipExtLaunchKernelGGL(fill_index, dim3(kGrid), dim3(kBlock), 0, nullptr, nullptr, nullptr, 0, d,
                        kN, 22);
  HIP_CHECK(hipDeviceSynchronize());
  expect_index_fill(d, 22);
  HIP_CHECK(hipEventDestroy(start));
  HIP_CHECK(hipEventDestroy(stop));
}

TEST_CASE("LaunchForms_graph_capture_of_each_form") {
  if (!hip_test::kernels_supported()) return;
  DeviceBuffer buf(kN * sizeof(float));
  float* df = static_cast<float*>(buf.ptr);
  std::vector<float> h(kN, 1.0f);
  HIP_CHECK(hipMemcpy(df, h.data(), kN * sizeof(float), hipMemcpyHostToDevice));
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  void (*fp)(float*, float, int) = scale<float>;
  HIP_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  hipLaunchKernelGGL(scale, dim3(kGrid), dim3(kBlock), 0, s, df, 2.0f, kN);  // deduced
  hipLaunchKernelGGL(fp, dim3(kGrid), dim3(kBlock), 0, s, df, 3.0f, kN);     // pointer
  hipLaunchKernelGGL(add_index, dim3(kGrid), dim3(kBlock), 0, s, df, size_t(kN));
  hipGraph_t graph;
  HIP_CHECK(hipStreamEndCapture(s, &graph));
  hipGraphExec_t exec;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(exec, s));
  HIP_CHECK(hipGraphLaunch(exec, s));
  HIP_CHECK(hipStreamSynchronize(s));
  std::vector<float> out(kN);
  HIP_CHECK(hipMemcpy(out.data(), df, kN * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) {
    float expect = 1.0f;
    for (int r = 0; r < 2; ++r) expect = expect * 2.0f * 3.0f + static_cast<float>(i);
    REQUIRE(out[i] == expect);
  }
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
  HIP_CHECK(hipStreamDestroy(s));
}

TEST_CASE("LaunchForms_graph_kernel_node_from_kernelParams") {
  if (!hip_test::kernels_supported()) return;
  DeviceBuffer buf(kN * sizeof(int));
  int* d = static_cast<int*>(buf.ptr);
  hipLaunchKernelGGL(fill_index, dim3(kGrid), dim3(kBlock), 0, 0, d, kN, 0);  // seen by name
  HIP_CHECK(hipDeviceSynchronize());
  int n = kN, base = 1234;
  void* params[] = {&d, &n, &base};
  hipKernelNodeParams kp{};
  kp.func = reinterpret_cast<void*>(fill_index);
  kp.gridDim = dim3(kGrid);  // a struct member named gridDim compiles: the ids are objects
  kp.blockDim = dim3(kBlock);
  kp.sharedMemBytes = 0;
  kp.kernelParams = params;
  hipGraph_t graph;
  HIP_CHECK(hipGraphCreate(&graph, 0));
  hipGraphNode_t node;
  HIP_CHECK(hipGraphAddKernelNode(&node, graph, nullptr, 0, &kp));
  hipGraphExec_t exec;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(exec, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  expect_index_fill(d, 1234);
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
}

TEST_CASE("LaunchForms_thread_ids_across_barriers") {
  if (!hip_test::kernels_supported()) return;
  const dim3 block(8, 4, 3), grid(3, 2);
  const uint32_t threads = block.x * block.y * block.z, blocks = grid.x * grid.y;
  DeviceBuffer buf(size_t(threads) * blocks * 3 * sizeof(uint32_t));
  uint32_t* d = static_cast<uint32_t*>(buf.ptr);
  hipLaunchKernelGGL(ids_across_barriers, grid, block, 0, 0, d);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<uint32_t> h(size_t(threads) * blocks * 3);
  HIP_CHECK(hipMemcpy(h.data(), d, h.size() * sizeof(uint32_t), hipMemcpyDeviceToHost));
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t t = 0; t < threads; ++t) {
      const uint32_t* got = &h[(size_t(b) * threads + t) * 3];
      REQUIRE(got[0] == t % block.x);
      REQUIRE(got[1] == t / block.x % block.y);
      REQUIRE(got[2] == t / (block.x * block.y));
    }
}
