// SPDX-License-Identifier: MIT
// Launch forms of a weftcc program whose kernels run from its x86_64 image: <<<>>>,
// hipLaunchKernelGGL (name, function-pointer variable, template parameter, deduced
// template arguments, HIP_KERNEL_NAME), hipLaunchKernel with an argument array, extern "C",
// namespaced and anonymous-namespace kernels, by-value structs, 3-D grids.
#include "check.h"

#include <vector>

struct Affine {
  float scale, shift;
  int pad[3];
  double extra;
};

__global__ void fill(int* out, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}
template <typename T, int Step>
__global__ void ramp(T* out, T base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = base + T(Step * i);
}
template <typename T>
__global__ void affine(T* data, Affine a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = T(data[i] * a.scale + a.shift + a.extra);
}
extern "C" __global__ void c_kernel(unsigned* out) { out[threadIdx.x] = 7u * threadIdx.x; }
namespace app {
__global__ void coords(dim3* out) {
  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  out[b * blockDim.x * blockDim.y * blockDim.z + t] = dim3(
      threadIdx.x + 10 * blockIdx.x, threadIdx.y + 10 * blockIdx.y, threadIdx.z + 10 * blockIdx.z);
}
}  // namespace app
namespace {
__global__ void hidden(int* out) { out[threadIdx.x] = -int(threadIdx.x); }
}  // namespace

template <class K>
void launch_through(K kernel, int* out, int n) {
  hipLaunchKernelGGL(kernel, dim3(1), dim3(n), 0, 0, out, 5, n);
}

int main() {
  const int n = 300;
  int* d;
  HIP_OK(hipMalloc(&d, n * sizeof(int)));
  std::vector<int> h(n);
  auto fetch = [&] { HIP_OK(hipMemcpy(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost)); };

  fill<<<(n + 127) / 128, 128>>>(d, 1, n);
  HIP_OK(hipGetLastError());
  fetch();
  for (int i = 0; i < n; ++i) CHECK(h[i] == 1 + i);

  hipLaunchKernelGGL(fill, dim3(3), dim3(100), 0, 0, d, 2, n);
  fetch();
  for (int i = 0; i < n; ++i) CHECK(h[i] == 2 + i);

  void (*pointer)(int*, int, int) = fill;
  hipLaunchKernelGGL(pointer, dim3(1), dim3(n), 0, hipStreamDefault, d, 3, n);
  fetch();
  for (int i = 0; i < n; ++i) CHECK(h[i] == 3 + i);

  launch_through(fill, d, n);
  fetch();
  for (int i = 0; i < n; ++i) CHECK(h[i] == 5 + i);

  hipLaunchKernelGGL(HIP_KERNEL_NAME(ramp<int, 3>), dim3(2), dim3(150), 0, 0, d, 4, n);
  fetch();
  for (int i = 0; i < n; ++i) CHECK(h[i] == 4 + 3 * i);

  float* f;
  HIP_OK(hipMalloc(&f, n * sizeof(float)));
  ramp<float, 1><<<1, n>>>(f, 0.5f, n);
  affine<<<3, 100>>>(f, Affine{2.0f, 1.0f, {0, 0, 0}, 0.25}, n);  // deduced: affine<float>
  std::vector<float> hf(n);
  HIP_OK(hipMemcpy(hf.data(), f, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) CHECK(hf[i] == float((0.5f + i) * 2.0f + 1.0f + 0.25));

  int value = 9, count = n;
  void* args[] = {&d, &value, &count};
  HIP_OK(
      hipLaunchKernel(reinterpret_cast<const void*>(&fill), dim3(3), dim3(100), args, 0, nullptr));
  fetch();
  for (int i = 0; i < n; ++i) CHECK(h[i] == 9 + i);

  unsigned* u;
  HIP_OK(hipMalloc(&u, 64 * sizeof(unsigned)));
  c_kernel<<<1, 64>>>(u);
  std::vector<unsigned> hu(64);
  HIP_OK(hipMemcpy(hu.data(), u, 64 * sizeof(unsigned), hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < 64; ++i) CHECK(hu[i] == 7u * i);

  hidden<<<1, 32>>>(d);
  fetch();
  for (int i = 0; i < 32; ++i) CHECK(h[i] == -i);

  const dim3 grid(2, 3, 2), block(4, 2, 3);
  const int total = 12 * 24;
  dim3* c;
  HIP_OK(hipMalloc(&c, total * sizeof(dim3)));
  app::coords<<<grid, block>>>(c);
  std::vector<dim3> hc(total);
  HIP_OK(hipMemcpy(hc.data(), c, total * sizeof(dim3), hipMemcpyDeviceToHost));
  for (unsigned bz = 0; bz < 2; ++bz)
    for (unsigned by = 0; by < 3; ++by)
      for (unsigned bx = 0; bx < 2; ++bx)
        for (unsigned tz = 0; tz < 3; ++tz)
          for (unsigned ty = 0; ty < 2; ++ty)
            for (unsigned tx = 0; tx < 4; ++tx) {
              unsigned b = bx + 2 * (by + 3 * bz), t = tx + 4 * (ty + 2 * tz);
              const dim3& v = hc[b * 24 + t];
              CHECK(v.x == tx + 10 * bx && v.y == ty + 10 * by && v.z == tz + 10 * bz);
            }
  HIP_OK(hipDeviceSynchronize());
  HIP_OK(hipFree(c));
  HIP_OK(hipFree(u));
  HIP_OK(hipFree(f));
  HIP_OK(hipFree(d));
  return finish("weftcc_cpu launches");
}
