// SPDX-License-Identifier: MIT
// bench/cpu_engine: the CPU agent's kernel engine vs OpenMP loops of the same
// computation, one binary, one run, one table (issue 8). Every kernel's result is
// checked against a serial reference. Not a test: it asserts nothing about time.
// With the block_loops pass built (issue 18), the same kernels compiled into a CPU
// code object by clang++-15 and the pass (block_loops/kernels.cpp) run through
// hipModuleLaunchKernel in the "compiled" column: time ratios weft/OpenMP. BL_OBJ=path
// loads another build of that object instead (an older pass: same run, side by side).
//
// BL_SKIP_FIBERS=1 runs each fiber kernel once, untimed (its result is still checked), and
// leaves out the rows after the launch latencies: the compiled/OpenMP rows in seconds.
//
//   [BL_OBJ=object.so] [BL_SKIP_FIBERS=1] build/bench/cpu_engine/bench_cpu_kernels [runs=21]
#include <hip/hip_runtime.h>

#include "../support/cpu_agent.hpp"
#include "../support/hip_check.hpp"

#include <hip/weft/fiber_sync.h>

#include <omp.h>
#include <sys/resource.h>
#include <boost/context/fiber.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double median_ms(int runs, const std::function<void()>& body) {
  std::vector<double> t;
  body();  // warm up
  for (int i = 0; i < runs; ++i) {
    auto a = Clock::now();
    body();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

bool skip_fibers() {
  static const bool skip = [] {
    const char* v = std::getenv("BL_SKIP_FIBERS");
    return v && *v && *v != '0';
  }();
  return skip;
}

// The fiber column: once, untimed (-1), under BL_SKIP_FIBERS.
double fibers_ms(int runs, const std::function<void()>& body) {
  if (!skip_fibers()) return median_ms(runs, body);
  body();
  return -1;
}

// ---- kernels (weft) ----

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void saxpy(float alpha, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}

__global__ void block_sum(const float* in, float* out) {
  __shared__ float partial[256];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

__global__ void warp_sum(const float* in, float* out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
  if (__lane_id() == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / warpSize] = v;
}

constexpr int kTile = 16;
__global__ void sgemm(const float* A, const float* B, float* C, int n) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += kTile) {
    As[threadIdx.y][threadIdx.x] = A[row * n + k0 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__global__ void empty_kernel() {}

// What one crossing costs: threads that only wait at barriers, or only exchange.
__global__ void barrier_loop(int rounds) {
  for (int i = 0; i < rounds; ++i) __syncthreads();
}
__global__ void exchange_loop(int rounds, float* sink) {
  float v = static_cast<float>(threadIdx.x);
  for (int i = 0; i < rounds; ++i) v += __shfl_down(v, 1);
  if (v == -1.0f) sink[0] = v;  // keeps the exchanges alive
}

struct Row {
  std::string name;
  double weft_ms, omp_ms;
  double compiled_ms;  // the block_loops code object; < 0 when not built
  double work;         // bytes or flops per run
  const char* unit;    // "GB/s" or "GFLOP/s"
  bool ok;
};

void print_row(const Row& r) {
  double scale = 1e-9 / 1e-3;
  double best = r.compiled_ms > 0 ? r.compiled_ms : r.weft_ms;
  char compiled[32] = "-", ratio[32] = "-", fibers[32] = "-", fibers_ratio[32] = "-";
  if (r.weft_ms > 0) {
    std::snprintf(fibers, sizeof fibers, "%9.3f", r.weft_ms);
    std::snprintf(fibers_ratio, sizeof fibers_ratio, "%7.2fx", r.weft_ms / r.omp_ms);
  }
  if (r.compiled_ms > 0) {
    std::snprintf(compiled, sizeof compiled, "%9.3f", r.compiled_ms);
    std::snprintf(ratio, sizeof ratio, "%6.2fx", r.compiled_ms / r.omp_ms);
  }
  std::printf("| %-34s | %9s | %9s | %9.3f | %8.2f %-7s | %8.2f %-7s | %8s | %7s | %s |\n",
              r.name.c_str(), fibers, compiled, r.omp_ms, r.work / best * scale, r.unit,
              r.work / r.omp_ms * scale, r.unit, fibers_ratio, ratio, r.ok ? "ok" : "WRONG");
}

// The block_loops code object (bench/cpu_engine/block_loops), when it was built.
struct Compiled {
  hipModule_t module = nullptr;
  hipFunction_t get(const char* name) const {
    hipFunction_t f = nullptr;
    if (module && hipModuleGetFunction(&f, module, name) != hipSuccess) f = nullptr;
    return f;
  }
  void launch(hipFunction_t f, dim3 grid, dim3 block, std::vector<void*>& params) const {
    CHECK(hipModuleLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, nullptr,
                                params.data(), nullptr));
    CHECK(hipDeviceSynchronize());
  }
  // Median ms of launch + sync (runs > 0), or -1 without the object.
  double time(int runs, const char* name, dim3 grid, dim3 block, std::vector<void*> params) const {
    hipFunction_t f = get(name);
    if (!f) return -1.0;
    return median_ms(runs, [&] { launch(f, grid, block, params); });
  }
};

bool close(float a, float b, float tol) {
  return std::fabs(a - b) <= tol * std::max(1.0f, std::fabs(b));
}

#if WEFT_INLINE_FIBER_SWITCH
// Two contexts ping-ponging through the switch kernels inline at every barrier
// (hip/weft/fiber_sync.h): cost of one switch.
weftFiber g_main_fiber, g_other_fiber;
long g_remaining;

[[noreturn]] void ping_back() {
  for (;;) {
    --g_remaining;
    weft::fiber::InlineSwitch{}(&g_other_fiber, &g_main_fiber, 0);
  }
}

double switch_ns_weft(long switches) {
  g_remaining = switches;
  std::vector<std::byte> stack(64 * 1024);
  // Entered by a jump: the stack as a call would leave it (16-byte aligned + 8).
  auto top = (reinterpret_cast<uintptr_t>(stack.data() + stack.size()) & ~uintptr_t(15)) - 8;
  g_other_fiber.sp = reinterpret_cast<void*>(top);
  g_other_fiber.pc = reinterpret_cast<const void*>(&ping_back);
  g_other_fiber.bp = nullptr;
  auto a = Clock::now();
  while (g_remaining > 0) weft::fiber::InlineSwitch{}(&g_main_fiber, &g_other_fiber, 1);
  double ns = std::chrono::duration<double, std::nano>(Clock::now() - a).count();
  return ns / (2.0 * switches);
}
#else
double switch_ns_weft(long) { return 0.0; }  // kernels switch through the engine here
#endif

double switch_ns_boost(long switches) {
  namespace bc = boost::context;
  long remaining = switches;
  bc::fiber f([&](bc::fiber&& back) {
    for (;;) {
      --remaining;
      back = std::move(back).resume();
    }
    return std::move(back);
  });
  auto a = Clock::now();
  while (remaining > 0) f = std::move(f).resume();
  double ns = std::chrono::duration<double, std::nano>(Clock::now() - a).count();
  return ns / (2.0 * switches);
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 21;
  hipDeviceProp_t props{};
  const int device = select_cpu_agent(props);
  std::printf("device %d: %s (%s), %d workers, OpenMP threads %d, median of %d runs\n\n", device,
              props.name, props.gcnArchName, props.multiProcessorCount, omp_get_max_threads(),
              runs);
  Compiled compiled;
  // BL_OBJ=path: another build of block_loops/kernels.cpp (an older pass, other flags).
  const char* object = std::getenv("BL_OBJ");
#ifdef WEFT_BENCH_BLOCK_LOOPS_OBJECT
  if (!object || !*object) object = WEFT_BENCH_BLOCK_LOOPS_OBJECT;
#endif
  if (object && *object) {
    if (hipModuleLoad(&compiled.module, object) != hipSuccess) {
      std::fprintf(stderr, "cannot load %s: the compiled column stays empty\n", object);
      compiled.module = nullptr;
    } else {
      std::printf("compiled column: %s\n\n", object);
    }
  }
  std::printf("| %-34s | %9s | %9s | %9s | %16s | %16s | %8s | %7s | %s |\n", "kernel", "fibers ms",
              "compiled", "OpenMP ms", "weft (best)", "OpenMP", "fib/omp", "cmp/omp", "check");
  std::printf("|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n", std::string(36, '-').c_str(),
              std::string(11, '-').c_str(), std::string(11, '-').c_str(),
              std::string(11, '-').c_str(), std::string(18, '-').c_str(),
              std::string(18, '-').c_str(), std::string(10, '-').c_str(),
              std::string(9, '-').c_str(), "----");

  const int n = 1 << 24, threads = 256, blocks = n / threads;
  std::vector<float> ha(n), hb(n), hc(n);
  for (int i = 0; i < n; ++i) {
    ha[i] = static_cast<float>(i % 1000) * 0.5f;
    hb[i] = static_cast<float>(i % 777) * 0.25f;
  }
  float *a, *b, *c, *partial;
  CHECK(hipMalloc(&a, n * sizeof(float)));
  CHECK(hipMalloc(&b, n * sizeof(float)));
  CHECK(hipMalloc(&c, n * sizeof(float)));
  CHECK(hipMalloc(&partial, n * sizeof(float)));
  auto release = [&] {  // main's return value once the rows are printed
    CHECK(hipFree(a));
    CHECK(hipFree(b));
    CHECK(hipFree(c));
    CHECK(hipFree(partial));
    if (compiled.module) CHECK(hipModuleUnload(compiled.module));
    return 0;
  };
  CHECK(hipMemcpy(a, ha.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(b, hb.data(), n * sizeof(float), hipMemcpyHostToDevice));

  {  // vectorAdd
    double w = fibers_ms(runs, [&] {
      hipLaunchKernelGGL(vector_add, dim3(blocks), dim3(threads), 0, 0, a, b, c, n);
      CHECK(hipDeviceSynchronize());
    });
    bool ok = true;
    for (int i = 0; i < n; i += 4099) ok &= c[i] == ha[i] + hb[i];
    CHECK(hipMemset(c, 0, n * sizeof(float)));
    int nn = n;
    double cw = compiled.time(runs, "vector_add", dim3(blocks), dim3(threads), {&a, &b, &c, &nn});
    if (cw > 0)
      for (int i = 0; i < n; i += 4099) ok &= c[i] == ha[i] + hb[i];
    double o = median_ms(runs, [&] {
#pragma omp parallel for
      for (int i = 0; i < n; ++i) hc[i] = ha[i] + hb[i];
    });
    print_row({"vectorAdd 2^24 (256/block)", w, o, cw, 12.0 * n, "GB/s", ok});
  }
  {  // saxpy (y updated in place: reset before each run is part of neither timing)
    CHECK(hipMemcpy(c, hb.data(), n * sizeof(float), hipMemcpyHostToDevice));
    double w = fibers_ms(runs, [&] {
      hipLaunchKernelGGL(saxpy, dim3(blocks), dim3(threads), 0, 0, 1.0001f, a, c, n);
      CHECK(hipDeviceSynchronize());
    });
    CHECK(hipMemcpy(c, hb.data(), n * sizeof(float), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(saxpy, dim3(blocks), dim3(threads), 0, 0, 2.0f, a, c, n);
    CHECK(hipDeviceSynchronize());
    bool ok = true;
    for (int i = 0; i < n; i += 4099) ok &= close(c[i], 2.0f * ha[i] + hb[i], 1e-6f);
    float alpha = 1.0001f;
    int nn = n;
    double cw = compiled.time(runs, "saxpy", dim3(blocks), dim3(threads), {&alpha, &a, &c, &nn});
    if (cw > 0) {
      CHECK(hipMemcpy(c, hb.data(), n * sizeof(float), hipMemcpyHostToDevice));
      alpha = 2.0f;
      std::vector<void*> params{&alpha, &a, &c, &nn};
      compiled.launch(compiled.get("saxpy"), dim3(blocks), dim3(threads), params);
      for (int i = 0; i < n; i += 4099) ok &= close(c[i], 2.0f * ha[i] + hb[i], 1e-6f);
    }
    std::vector<float> y = hb;
    double o = median_ms(runs, [&] {
#pragma omp parallel for
      for (int i = 0; i < n; ++i) y[i] = 1.0001f * ha[i] + y[i];
    });
    print_row({"saxpy 2^24", w, o, cw, 12.0 * n, "GB/s", ok});
  }
  {  // block sum
    double w = fibers_ms(runs, [&] {
      hipLaunchKernelGGL(block_sum, dim3(blocks), dim3(threads), 0, 0, a, partial);
      CHECK(hipDeviceSynchronize());
    });
    auto check_sums = [&] {
      bool good = true;
      for (int blk = 0; blk < blocks; blk += 997) {
        double s = 0;
        for (int t = 0; t < threads; ++t) s += ha[blk * threads + t];
        good &= close(partial[blk], static_cast<float>(s), 1e-5f);
      }
      return good;
    };
    bool ok = check_sums();
    CHECK(hipMemset(partial, 0, n * sizeof(float)));
    double cw = compiled.time(runs, "block_sum", dim3(blocks), dim3(threads), {&a, &partial});
    if (cw > 0) ok &= check_sums();
    std::vector<float> out(blocks);
    double o = median_ms(runs, [&] {
#pragma omp parallel for
      for (int blk = 0; blk < blocks; ++blk) {
        float s = 0;
        for (int t = 0; t < threads; ++t) s += ha[blk * threads + t];
        out[blk] = s;
      }
    });
    print_row({"block sum __shared__+__syncthreads", w, o, cw, 4.0 * n, "GB/s", ok});
  }
  {  // warp sum
    double w = fibers_ms(runs, [&] {
      hipLaunchKernelGGL(warp_sum, dim3(blocks), dim3(threads), 0, 0, a, partial);
      CHECK(hipDeviceSynchronize());
    });
    auto check_sums = [&] {
      bool good = true;
      for (int wp = 0; wp < n / warpSize; wp += 1013) {
        double s = 0;
        for (int l = 0; l < warpSize; ++l) s += ha[wp * warpSize + l];
        good &= close(partial[wp], static_cast<float>(s), 1e-5f);
      }
      return good;
    };
    bool ok = check_sums();
    CHECK(hipMemset(partial, 0, n * sizeof(float)));
    double cw = compiled.time(runs, "warp_sum", dim3(blocks), dim3(threads), {&a, &partial});
    if (cw > 0) ok &= check_sums();
    std::vector<float> out(n / warpSize);
    double o = median_ms(runs, [&] {
#pragma omp parallel for
      for (int wp = 0; wp < n / warpSize; ++wp) {
        float s = 0;
        for (int l = 0; l < warpSize; ++l) s += ha[wp * warpSize + l];
        out[wp] = s;
      }
    });
    print_row({"warp sum __shfl_down", w, o, cw, 4.0 * n, "GB/s", ok});
  }
  {  // SGEMM 512^3
    const int m = 512;
    std::vector<float> A(m * m), B(m * m), C(m * m), R(m * m, 0.0f);
    for (int i = 0; i < m * m; ++i) {
      A[i] = static_cast<float>((i * 7) % 13) * 0.1f;
      B[i] = static_cast<float>((i * 5) % 11) * 0.1f;
    }
    float *dA, *dB, *dC;
    CHECK(hipMalloc(&dA, m * m * sizeof(float)));
    CHECK(hipMalloc(&dB, m * m * sizeof(float)));
    CHECK(hipMalloc(&dC, m * m * sizeof(float)));
    CHECK(hipMemcpy(dA, A.data(), m * m * sizeof(float), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dB, B.data(), m * m * sizeof(float), hipMemcpyHostToDevice));
    int sruns = std::max(3, runs / 3);
    double w = fibers_ms(sruns, [&] {
      hipLaunchKernelGGL(sgemm, dim3(m / kTile, m / kTile), dim3(kTile, kTile), 0, 0, dA, dB, dC,
                         m);
      CHECK(hipDeviceSynchronize());
    });
    for (int i = 0; i < m; ++i)
      for (int k = 0; k < m; ++k)
        for (int j = 0; j < m; ++j) R[i * m + j] += A[i * m + k] * B[k * m + j];
    bool ok = true;
    for (int i = 0; i < m * m; i += 501) ok &= close(dC[i], R[i], 1e-3f);
    CHECK(hipMemset(dC, 0, m * m * sizeof(float)));
    int mm = m;
    double cw = compiled.time(sruns, "sgemm", dim3(m / kTile, m / kTile), dim3(kTile, kTile),
                              {&dA, &dB, &dC, &mm});
    if (cw > 0)
      for (int i = 0; i < m * m; i += 501) ok &= close(dC[i], R[i], 1e-3f);
    double o = median_ms(sruns, [&] {
#pragma omp parallel for
      for (int i = 0; i < m; ++i) {
        float* row = &C[i * m];
        for (int j = 0; j < m; ++j) row[j] = 0;
        for (int k = 0; k < m; ++k) {
          float aik = A[i * m + k];
          for (int j = 0; j < m; ++j) row[j] += aik * B[k * m + j];
        }
      }
    });
    print_row({"SGEMM 512^3, 16x16 shared tiles", w, o, cw, 2.0 * m * m * m, "GFLOP/s", ok});
    CHECK(hipFree(dA));
    CHECK(hipFree(dB));
    CHECK(hipFree(dC));
  }

  std::printf("\n| %-44s | %12s | %12s | %7s |\n", "latency", "weft", "OpenMP", "w/omp");
  std::printf("|%s|%s|%s|%s|\n", std::string(46, '-').c_str(), std::string(14, '-').c_str(),
              std::string(14, '-').c_str(), std::string(9, '-').c_str());
  {
    const int reps = 2000;
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
      auto s = Clock::now();
      hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, 0);
      CHECK(hipDeviceSynchronize());
      t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - s).count());
    }
    std::sort(t.begin(), t.end());
    std::vector<double> o;
    for (int i = 0; i < reps; ++i) {
      auto s = Clock::now();
#pragma omp parallel
      { asm volatile("" ::: "memory"); }
      o.push_back(std::chrono::duration<double, std::micro>(Clock::now() - s).count());
    }
    std::sort(o.begin(), o.end());
    std::printf("| %-44s | %9.2f us | %9.2f us | %6.2fx |\n",
                "empty kernel launch + sync (median of 2000)", t[reps / 2], o[reps / 2],
                t[reps / 2] / o[reps / 2]);
    if (hipFunction_t f = compiled.get("empty_kernel")) {
      std::vector<double> ct;
      for (int i = 0; i < reps; ++i) {
        auto s = Clock::now();
        CHECK(hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
        CHECK(hipDeviceSynchronize());
        ct.push_back(std::chrono::duration<double, std::micro>(Clock::now() - s).count());
      }
      std::sort(ct.begin(), ct.end());
      std::printf("| %-44s | %9.2f us | %9.2f us | %6.2fx |\n",
                  "compiled empty kernel (module) launch + sync", ct[reps / 2], o[reps / 2],
                  ct[reps / 2] / o[reps / 2]);
    }
  }
  if (skip_fibers()) return release();  // BL_SKIP_FIBERS: the fiber-only rows below are left out
  {
    const int reps = 20000;
    CHECK(hipDeviceSynchronize());
    auto s = Clock::now();
    for (int i = 0; i < reps; ++i) hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, 0);
    double submit_us = std::chrono::duration<double, std::micro>(Clock::now() - s).count() / reps;
    CHECK(hipDeviceSynchronize());
    double total_us = std::chrono::duration<double, std::micro>(Clock::now() - s).count() / reps;
    std::printf("| %-44s | %9.3f us | %12s | %7s |\n", "async launch, submit cost each (20000)",
                submit_us, "-", "-");
    std::printf("| %-44s | %9.3f us | %12s | %7s |\n", "async launch, throughput each (20000)",
                total_us, "-", "-");
  }
  {
    double before = cpu_seconds();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    double used = cpu_seconds() - before;
    std::printf("| %-44s | %10.1f %% | %12s | %7s |\n", "CPU used while idle (1 s after work)",
                used * 100.0, "-", "-");
    // The first second also holds the tail of the work (spin windows of 50 us,
    // freeing the launches' arguments); a second later nothing may run at all.
    before = cpu_seconds();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    used = cpu_seconds() - before;
    std::printf("| %-44s | %10.2f %% | %12s | %7s |\n", "CPU used while idle (the second after)",
                used * 100.0, "-", "-");
  }
  {
    // Core-nanoseconds per crossing: wall time x workers / crossings (each GPU
    // thread also ends once, which counts as one more crossing).
    const int rounds = 64, blocks = 4096, threads = 256;
    double crossings = double(blocks) * threads * (rounds + 1);
    double bar = median_ms(runs, [&] {
      hipLaunchKernelGGL(barrier_loop, dim3(blocks), dim3(threads), 0, 0, rounds);
      CHECK(hipDeviceSynchronize());
    });
    double xch = median_ms(runs, [&] {
      hipLaunchKernelGGL(exchange_loop, dim3(blocks), dim3(threads), 0, 0, rounds, c);
      CHECK(hipDeviceSynchronize());
    });
    std::printf("| %-44s | %9.2f ns | %12s | %7s |\n",
                "__syncthreads crossing (core-ns, 64/thread)",
                bar * 1e6 * props.multiProcessorCount / crossings, "-", "-");
    std::printf("| %-44s | %9.2f ns | %12s | %7s |\n", "__shfl_down crossing (core-ns, 64/thread)",
                xch * 1e6 * props.multiProcessorCount / crossings, "-", "-");
  }
  {
    const long switches = 20'000'000;
    double ours = switch_ns_weft(switches), boost = switch_ns_boost(switches);
    std::printf("| %-44s | %9.2f ns | %9.2f ns | %6.2fx |\n",
                "context switch: weft inline | Boost.Context", ours, boost, ours / boost);
  }
  return release();
}
