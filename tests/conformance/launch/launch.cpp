// SPDX-License-Identifier: MIT
// Conformance: single-source kernels launched with hipLaunchKernelGGL: indexing in 1-3
// dimensions, argument passing, static and dynamic shared memory, __syncthreads and
// atomicAdd.
#include "hip_test.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

namespace {

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Every thread writes its global linear id at its linear position, counts the write, and
// records the launch geometry it saw.
__global__ void linear_id_3d(unsigned* ids, unsigned* hits, unsigned* geometry) {
  const unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned gy = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned gz = blockIdx.z * blockDim.z + threadIdx.z;
  const unsigned width = gridDim.x * blockDim.x;
  const unsigned height = gridDim.y * blockDim.y;
  const unsigned id = (gz * height + gy) * width + gx;
  ids[id] = id;
  atomicAdd(&hits[id], 1u);
  if (id == 0) {
    geometry[0] = blockDim.x;
    geometry[1] = blockDim.y;
    geometry[2] = blockDim.z;
    geometry[3] = gridDim.x;
    geometry[4] = gridDim.y;
    geometry[5] = gridDim.z;
  }
}

struct Packed {
  char c;
  double d;
  int i[3];
};

__global__ void arguments(char c, short s, int i, long long ll, float f, double d, Packed p,
                          const int* ptr, double* out) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  out[0] = c;
  out[1] = s;
  out[2] = i;
  out[3] = static_cast<double>(ll);
  out[4] = f;
  out[5] = d;
  out[6] = p.c;
  out[7] = p.d;
  out[8] = p.i[0] + p.i[1] + p.i[2];
  out[9] = *ptr;
}

// Tree reduction through static shared memory; blockDim.x is a power of two <= 1024.
__global__ void block_sum(const int* in, long long* out) {
  __shared__ long long partial[1024];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

// Rotates values around the block `rounds` times, two barriers per round.
__global__ void rotate(int* out, int rounds) {
  __shared__ int ring[256];
  const int n = static_cast<int>(blockDim.x);
  const int t = static_cast<int>(threadIdx.x);
  int v = t + 1000 * static_cast<int>(blockIdx.x);
  for (int r = 0; r < rounds; ++r) {
    ring[t] = v;
    __syncthreads();
    v = ring[(t + 1) % n] + 1;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = v;
}

// Reverses each block's slice through dynamic shared memory.
__global__ void reverse_dynamic(const int* in, int* out) {
  HIP_DYNAMIC_SHARED(int, buffer);
  const unsigned t = threadIdx.x;
  const unsigned base = blockIdx.x * blockDim.x;
  buffer[t] = in[base + t];
  __syncthreads();
  out[base + t] = buffer[blockDim.x - 1 - t];
}

__global__ void atomics(int* i, unsigned* u, float* f) {
  atomicAdd(i, 1);
  atomicAdd(u, 2u);
  atomicAdd(f, 1.0f);
}

}  // namespace

TEST_CASE("Unit_hipLaunchKernelGGL_Positive_VectorAdd") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kN = 100003;
  std::vector<float> a(kN), b(kN), c(kN, -1.0f);
  for (int i = 0; i < kN; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(2 * i + 1);
  }
  hip_test::DeviceBuffer<float> da(kN), db(kN), dc(kN);
  HIP_CHECK(hipMemcpy(da.get(), a.data(), da.bytes(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db.get(), b.data(), db.bytes(), hipMemcpyHostToDevice));
  const unsigned blocks = (kN + 255) / 256;
  HIP_LAUNCH_CHECK(vector_add, dim3(blocks), dim3(256), 0, 0, da.get(), db.get(), dc.get(), kN);
  HIP_CHECK(hipMemcpy(c.data(), dc.get(), dc.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) {
    if (c[i] != a[i] + b[i]) FAIL("c[" << i << "] = " << c[i]);
  }
}

TEST_CASE("Unit_hipLaunchKernelGGL_Positive_Grid3D") {
  if (!hip_test::kernels_supported()) return;
  struct Shape {
    dim3 grid, block;
  };
  const Shape shapes[] = {
      {dim3(3, 4, 2), dim3(4, 2, 8)},  {dim3(1, 1, 1), dim3(1, 1, 1)},
      {dim3(7, 1, 1), dim3(1, 5, 3)},  {dim3(2, 3, 5), dim3(16, 4, 1)},
      {dim3(1, 1, 9), dim3(1, 1, 64)},
  };
  for (const auto& shape : shapes) {
    const unsigned total =
        shape.grid.x * shape.grid.y * shape.grid.z * shape.block.x * shape.block.y * shape.block.z;
    INFO("grid " << shape.grid.x << "x" << shape.grid.y << "x" << shape.grid.z << " block "
                 << shape.block.x << "x" << shape.block.y << "x" << shape.block.z);
    hip_test::PinnedBuffer<unsigned> ids(total), hits(total), geometry(6);
    std::memset(ids.get(), 0xFF, ids.bytes());
    std::memset(hits.get(), 0, hits.bytes());
    HIP_LAUNCH_CHECK(linear_id_3d, shape.grid, shape.block, 0, nullptr, ids.get(), hits.get(),
                     geometry.get());
    HIP_CHECK(hipDeviceSynchronize());
    for (unsigned i = 0; i < total; ++i) {
      if (ids[i] != i || hits[i] != 1)
        FAIL("id " << i << ": got " << ids[i] << ", hits " << hits[i]);
    }
    REQUIRE(geometry[0] == shape.block.x);
    REQUIRE(geometry[1] == shape.block.y);
    REQUIRE(geometry[2] == shape.block.z);
    REQUIRE(geometry[3] == shape.grid.x);
    REQUIRE(geometry[4] == shape.grid.y);
    REQUIRE(geometry[5] == shape.grid.z);
  }
}

TEST_CASE("Unit_hipLaunchKernelGGL_Positive_Arguments") {
  if (!hip_test::kernels_supported()) return;
  hip_test::PinnedBuffer<double> out(10);
  hip_test::PinnedBuffer<int> pointee(1);
  pointee[0] = -77;
  const Packed p{'z', 2.5, {1, 2, 3}};
  HIP_LAUNCH_CHECK(arguments, dim3(1), dim3(1), 0, nullptr, static_cast<char>('a'),
                   static_cast<short>(-300), 123456, 1LL << 40, 1.5f, -0.25, p,
                   static_cast<const int*>(pointee.get()), out.get());
  HIP_CHECK(hipDeviceSynchronize());
  REQUIRE(out[0] == 'a');
  REQUIRE(out[1] == -300);
  REQUIRE(out[2] == 123456);
  REQUIRE(out[3] == static_cast<double>(1LL << 40));
  REQUIRE(out[4] == 1.5);
  REQUIRE(out[5] == -0.25);
  REQUIRE(out[6] == 'z');
  REQUIRE(out[7] == 2.5);
  REQUIRE(out[8] == 6);
  REQUIRE(out[9] == -77);
}

TEST_CASE("Unit_hipLaunchKernelGGL_Positive_ArgumentsCopiedAtLaunch") {
  // Arguments are captured when the launch is issued, not when the kernel runs.
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::PinnedBuffer<double> out(10);
  hip_test::PinnedBuffer<int> pointee(1);
  pointee[0] = 1;
  hip_test::Gate gate;
  gate.launch(s.get());
  Packed p{'q', 9.0, {4, 5, 6}};
  int i = 10;
  HIP_LAUNCH_CHECK(arguments, dim3(1), dim3(1), 0, s.get(), static_cast<char>('x'),
                   static_cast<short>(2), i, 3LL, 4.0f, 5.0, p,
                   static_cast<const int*>(pointee.get()), out.get());
  p.d = -1.0;
  i = -1;
  gate.open();
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(out[2] == 10);
  REQUIRE(out[7] == 9.0);
}

TEST_CASE("Unit_hipLaunchKernelGGL_Positive_StaticSharedReduction") {
  if (!hip_test::kernels_supported()) return;
  for (unsigned block : {256u, 1024u}) {
    if (static_cast<int>(block) > hip_test::props().maxThreadsPerBlock) {
      WARN("block of " << block << " exceeds maxThreadsPerBlock; not tested");
      continue;
    }
    INFO("block " << block);
    constexpr unsigned kBlocks = 37;
    const unsigned n = kBlocks * block;
    std::vector<int> in(n);
    for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int>((i * 2654435761u) % 1000) - 500;
    hip_test::DeviceBuffer<int> din(n);
    hip_test::DeviceBuffer<long long> dout(kBlocks);
    HIP_CHECK(hipMemcpy(din.get(), in.data(), din.bytes(), hipMemcpyHostToDevice));
    HIP_LAUNCH_CHECK(block_sum, dim3(kBlocks), dim3(block), 0, nullptr, din.get(), dout.get());
    std::vector<long long> out(kBlocks);
    HIP_CHECK(hipMemcpy(out.data(), dout.get(), dout.bytes(), hipMemcpyDeviceToHost));
    for (unsigned b = 0; b < kBlocks; ++b) {
      const long long expected =
          std::accumulate(in.begin() + b * block, in.begin() + (b + 1) * block, 0LL);
      if (out[b] != expected) FAIL("block " << b << " sum " << out[b] << ", expected " << expected);
    }
  }
}

TEST_CASE("Unit_hipLaunchKernelGGL_Positive_SyncthreadsInLoop") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kBlock = 256, kBlocks = 8, kRounds = 50;
  hip_test::PinnedBuffer<int> out(kBlock * kBlocks);
  HIP_LAUNCH_CHECK(rotate, dim3(kBlocks), dim3(kBlock), 0, nullptr, out.get(), kRounds);
  HIP_CHECK(hipDeviceSynchronize());
  for (int b = 0; b < kBlocks; ++b) {
    for (int t = 0; t < kBlock; ++t) {
      const int expected = (t + kRounds) % kBlock + 1000 * b + kRounds;
      if (out[b * kBlock + t] != expected) {
        FAIL("block " << b << " thread " << t << ": " << out[b * kBlock + t] << ", expected "
                      << expected);
      }
    }
  }
}

TEST_CASE("Unit_hipLaunchKernelGGL_Positive_DynamicShared") {
  if (!hip_test::kernels_supported()) return;
  for (unsigned block : {64u, 512u}) {
    INFO("block " << block);
    constexpr unsigned kBlocks = 13;
    const unsigned n = block * kBlocks;
    hip_test::PinnedBuffer<int> in(n), out(n);
    for (unsigned i = 0; i < n; ++i) {
      in[i] = static_cast<int>(i);
      out[i] = -1;
    }
    HIP_LAUNCH_CHECK(reverse_dynamic, dim3(kBlocks), dim3(block), block * sizeof(int), nullptr,
                     static_cast<const int*>(in.get()), out.get());
    HIP_CHECK(hipDeviceSynchronize());
    for (unsigned b = 0; b < kBlocks; ++b) {
      for (unsigned t = 0; t < block; ++t) {
        if (out[b * block + t] != static_cast<int>(b * block + block - 1 - t)) {
          FAIL("block " << b << " thread " << t << ": " << out[b * block + t]);
        }
      }
    }
  }
}

TEST_CASE("Unit_hipLaunchKernelGGL_Positive_AtomicAdd") {
  if (!hip_test::kernels_supported()) return;
  constexpr unsigned kBlocks = 64, kBlock = 256;
  hip_test::PinnedBuffer<int> i(1);
  hip_test::PinnedBuffer<unsigned> u(1);
  hip_test::PinnedBuffer<float> f(1);
  i[0] = 0;
  u[0] = 0;
  f[0] = 0.0f;
  HIP_LAUNCH_CHECK(atomics, dim3(kBlocks), dim3(kBlock), 0, nullptr, i.get(), u.get(), f.get());
  HIP_CHECK(hipDeviceSynchronize());
  REQUIRE(i[0] == static_cast<int>(kBlocks * kBlock));
  REQUIRE(u[0] == 2 * kBlocks * kBlock);
  REQUIRE(f[0] == static_cast<float>(kBlocks * kBlock));  // exact: small integers
}

TEST_CASE("Unit_hipLaunchKernelGGL_Positive_Streams") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kN = 1000;
  hip_test::Stream s, nb(hipStreamNonBlocking);
  for (hipStream_t stream : {hipStream_t{nullptr}, s.get(), nb.get(), hipStreamPerThread}) {
    INFO("stream " << stream);
    hip_test::PinnedBuffer<float> a(kN), b(kN), c(kN);
    for (int i = 0; i < kN; ++i) {
      a[i] = 1.0f;
      b[i] = static_cast<float>(i);
      c[i] = 0.0f;
    }
    HIP_LAUNCH_CHECK(vector_add, dim3((kN + 127) / 128), dim3(128), 0, stream,
                     static_cast<const float*>(a.get()), static_cast<const float*>(b.get()),
                     c.get(), kN);
    HIP_CHECK(hipStreamSynchronize(stream));
    for (int i = 0; i < kN; ++i) REQUIRE(c[i] == 1.0f + i);
  }
}

TEST_CASE("Unit_hipLaunchKernelGGL_Positive_MaxBlock") {
  // The largest block the device allows, in each dimension the device allows it.
  if (!hip_test::kernels_supported()) return;
  const auto& p = hip_test::props();
  const unsigned max_threads = static_cast<unsigned>(p.maxThreadsPerBlock);
  const dim3 blocks[] = {
      dim3(std::min<unsigned>(max_threads, p.maxThreadsDim[0]), 1, 1),
      dim3(1, std::min<unsigned>(max_threads, p.maxThreadsDim[1]), 1),
      dim3(1, 1, std::min<unsigned>(max_threads, p.maxThreadsDim[2])),
  };
  for (const dim3& block : blocks) {
    const unsigned total = block.x * block.y * block.z * 2;
    hip_test::PinnedBuffer<unsigned> ids(total), hits(total), geometry(6);
    std::memset(hits.get(), 0, hits.bytes());
    HIP_LAUNCH_CHECK(linear_id_3d, dim3(2), block, 0, nullptr, ids.get(), hits.get(),
                     geometry.get());
    HIP_CHECK(hipDeviceSynchronize());
    for (unsigned i = 0; i < total; ++i) {
      if (hits[i] != 1) FAIL("id " << i << " hit " << hits[i] << " times");
    }
  }
}
