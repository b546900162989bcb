// SPDX-License-Identifier: MIT
// Atomics, the math API and the fp16/bf16 types in kernels of the x86_64 image, against
// values computed on the host.
#include "check.h"

#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>

#include <cmath>
#include <vector>

struct Totals {
  int i;
  unsigned u;
  float f;
  double d;
  unsigned long long ull;
  int max;
  int min;
  unsigned bits;
  int cas_lock;
  int in_lock;
};

__global__ void atomics(Totals* t) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&t->i, 2);
  atomicAdd(&t->u, 1);  // atomicAdd(unsigned*, int) as AMD's overload set allows
  atomicAdd(&t->f, 0.5f);
  atomicAdd(&t->d, 0.25);
  atomicAdd(&t->ull, 3ull);
  atomicMax(&t->max, i);
  atomicMin(&t->min, -i);
  atomicOr(&t->bits, 1u << (i % 32));
  while (atomicCAS(&t->cas_lock, 0, 1) != 0) {
  }  // a spin lock from atomicCAS
  t->in_lock += 1;
  __threadfence();
  atomicExch(&t->cas_lock, 0);
}

__global__ void math(const float* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];
  float s, c;
  sincosf(v, &s, &c);
  out[i * 8 + 0] = sinf(v) + cosf(v);
  out[i * 8 + 1] = std::sqrt(v) + sqrtf(v + 1.0f);
  out[i * 8 + 2] = expf(-v) * powf(v, 1.5f);
  out[i * 8 + 3] = s * c;
  out[i * 8 + 4] = erfinvf(v / 20.0f) + rsqrtf(v + 1.0f);
  out[i * 8 + 5] = float(__half2float(__float2half(v)) +
                         __half2float(__hmul(__float2half(v), __float2half(0.5f))));
  out[i * 8 + 6] = __bfloat162float(__float2bfloat16(v) + __float2bfloat16(1.0f));
  out[i * 8 + 7] = float(std::isnan(v) ? -1 : fmaxf(v, 2.0f) + float(__popc(unsigned(i))));
}

int main() {
  Totals* t;
  HIP_OK(hipMalloc(&t, sizeof(Totals)));
  Totals zero{};
  zero.min = 1 << 30;
  HIP_OK(hipMemcpy(t, &zero, sizeof zero, hipMemcpyHostToDevice));
  const int blocks = 8, threads = 128, n = blocks * threads;
  atomics<<<blocks, threads>>>(t);
  Totals h;
  HIP_OK(hipMemcpy(&h, t, sizeof h, hipMemcpyDeviceToHost));
  CHECK(h.i == 2 * n);
  CHECK(h.u == unsigned(n));
  CHECK(h.f == 0.5f * n);
  CHECK(h.d == 0.25 * n);
  CHECK(h.ull == 3ull * n);
  CHECK(h.max == n - 1);
  CHECK(h.min == -(n - 1));
  CHECK(h.bits == 0xffffffffu);
  CHECK(h.in_lock == n);

  const int m = 200;
  std::vector<float> x(m);
  for (int i = 0; i < m; ++i) x[i] = 0.05f * float(i) + 0.01f;
  float *dx, *dout;
  HIP_OK(hipMalloc(&dx, m * sizeof(float)));
  HIP_OK(hipMalloc(&dout, m * 8 * sizeof(float)));
  HIP_OK(hipMemcpy(dx, x.data(), m * sizeof(float), hipMemcpyHostToDevice));
  math<<<2, 128>>>(dx, dout, m);
  std::vector<float> r(m * 8);
  HIP_OK(hipMemcpy(r.data(), dout, r.size() * sizeof(float), hipMemcpyDeviceToHost));
  auto near = [](float got, double want, double tol) {
    return std::fabs(got - want) <= tol * (1 + std::fabs(want));
  };
  for (int i = 0; i < m; ++i) {
    const double v = x[i];
    const float* o = &r[i * 8];
    CHECK(near(o[0], std::sin(v) + std::cos(v), 1e-5));
    CHECK(near(o[1], std::sqrt(v) + std::sqrt(v + 1), 1e-5));
    CHECK(near(o[2], std::exp(-v) * std::pow(v, 1.5), 1e-5));
    CHECK(near(o[3], std::sin(v) * std::cos(v), 1e-5));
    const double y = v / 20.0;  // erfinv by Newton on erf
    double e = 0;
    for (int k = 0; k < 50; ++k) e -= (std::erf(e) - y) / (2 / std::sqrt(M_PI) * std::exp(-e * e));
    CHECK(near(o[4], e + 1 / std::sqrt(v + 1), 1e-4));
    const float hv = __half2float(__float2half(float(v)));
    CHECK(near(o[5], hv + __half2float(__float2half(hv * 0.5f)), 2e-3));
    CHECK(near(o[6], v + 1, 1e-2));
    CHECK(o[7] == std::fmax(float(v), 2.0f) + float(__builtin_popcount(unsigned(i))));
  }
  HIP_OK(hipFree(dout));
  HIP_OK(hipFree(dx));
  HIP_OK(hipFree(t));
  return finish("weftcc_cpu atomics_math");
}
