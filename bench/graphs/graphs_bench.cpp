// SPDX-License-Identifier: MIT
// bench/graphs: HIP graph costs on the current device, side by side in one run
// (issue 5; bench/RESULTS.md has the numbers and the command).
//
//  1. A 100-kernel chain: per-node cost of a graph replay against direct
//     stream launches (each chain is waited for, in both cases).
//  2. Instantiation of 100- and 8192-node graphs.
//  3. hipGraphExecUpdate on 8192 kernel nodes: nothing changed, and every
//     kernel's arguments changed (a re-captured graph).
//  4. One hipGraphExecKernelNodeSetParams call.
//
// Each figure is the median of several repetitions.
// Usage: bench_graphs [--quick] [--device N]
#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

__global__ void tick(int* counter) {
  if (threadIdx.x == 0) ++*counter;
}

void check(hipError_t rc, const char* what) {
  if (rc != hipSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", what, hipGetErrorName(rc));
    std::exit(1);
  }
}
#define CHECK(expr) check((expr), #expr)

using Clock = std::chrono::steady_clock;

// Median, over `reps` runs, of `fn`'s time in microseconds.
double median_us(int reps, const std::function<void()>& fn) {
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    fn();
    times.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

hipGraph_t capture_chain(hipStream_t s, int* counter, int nodes) {
  CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  for (int i = 0; i < nodes; ++i) hipLaunchKernelGGL(tick, dim3(1), dim3(32), 0, s, counter);
  hipGraph_t g = nullptr;
  CHECK(hipStreamEndCapture(s, &g));
  return g;
}

std::vector<hipGraphNode_t> nodes_of(hipGraph_t g) {
  size_t n = 0;
  CHECK(hipGraphGetNodes(g, nullptr, &n));
  std::vector<hipGraphNode_t> nodes(n);
  CHECK(hipGraphGetNodes(g, nodes.data(), &n));
  return nodes;
}

struct Row {
  std::string what;
  double value;
  std::string unit;
  std::string note;
};

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  int device = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--device") == 0 && i + 1 < argc) device = std::atoi(argv[++i]);
  }
  const int reps = quick ? 3 : 15;
  CHECK(hipSetDevice(device));
  hipDeviceProp_t props{};
  CHECK(hipGetDeviceProperties(&props, device));
  hipStream_t s = nullptr;
  CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  int* counter = nullptr;
  CHECK(hipMalloc(&counter, sizeof(int)));
  CHECK(hipMemset(counter, 0, sizeof(int)));
  std::vector<Row> rows;

  // ---- 1. 100-kernel chain ----
  constexpr int kChain = 100;
  const int chains = quick ? 20 : 200;
  hipGraph_t chain = capture_chain(s, counter, kChain);
  hipGraphExec_t chain_exec = nullptr;
  CHECK(hipGraphInstantiate(&chain_exec, chain, nullptr, nullptr, 0));
  for (int w = 0; w < 20; ++w) {  // warm up both paths (threads, caches)
    for (int i = 0; i < kChain; ++i) hipLaunchKernelGGL(tick, dim3(1), dim3(32), 0, s, counter);
    CHECK(hipGraphLaunch(chain_exec, s));
  }
  CHECK(hipStreamSynchronize(s));
  double direct = median_us(
                      reps,
                      [&] {
    for (int c = 0; c < chains; ++c) {
      for (int i = 0; i < kChain; ++i) hipLaunchKernelGGL(tick, dim3(1), dim3(32), 0, s, counter);
      CHECK(hipStreamSynchronize(s));
    }
                      }) /
      (chains * kChain);
  double replay = median_us(
                      reps,
                      [&] {
    for (int c = 0; c < chains; ++c) {
      CHECK(hipGraphLaunch(chain_exec, s));
      CHECK(hipStreamSynchronize(s));
    }
                      }) /
      (chains * kChain);
  double launch_host = median_us(
                           reps,
                           [&] {
    for (int c = 0; c < chains; ++c) CHECK(hipGraphLaunch(chain_exec, s));
                           }) /
      chains;
  CHECK(hipStreamSynchronize(s));
  rows.push_back({"100-kernel chain, direct launches, per kernel", direct, "µs", ""});
  rows.push_back(
      {"100-kernel chain, graph replay, per node", replay, "µs",
       "ratio " + std::to_string(replay / direct).substr(0, 5) + "x of direct (target ≤ 0.5x)"});
  rows.push_back({"hipGraphLaunch host time (100 nodes, not waited)", launch_host, "µs", ""});

  // ---- 2. instantiation ----
  // hipGraphInstantiate alone (the plan is destroyed outside the timed part).
  auto instantiate_us = [&](hipGraph_t g, int times) {
    std::vector<double> t;
    for (int r = 0; r < times; ++r) {
      hipGraphExec_t e = nullptr;
      auto t0 = Clock::now();
      CHECK(hipGraphInstantiate(&e, g, nullptr, nullptr, 0));
      t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
      CHECK(hipGraphExecDestroy(e));
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  double inst100 = instantiate_us(chain, reps * 10);
  constexpr int kBig = 8192;
  hipGraph_t big = capture_chain(s, counter, kBig);
  double inst8192 = instantiate_us(big, reps);
  rows.push_back({"instantiate, 100 nodes", inst100, "µs", ""});
  rows.push_back({"instantiate, 8192 nodes", inst8192, "µs",
                  "per node " + std::to_string(inst8192 / kBig).substr(0, 5) + " µs vs " +
                      std::to_string(inst100 / kChain).substr(0, 5) + " µs at 100 nodes"});

  // ---- 3. hipGraphExecUpdate on 8192 nodes ----
  hipGraphExec_t big_exec = nullptr;
  CHECK(hipGraphInstantiate(&big_exec, big, nullptr, nullptr, 0));
  hipGraphNode_t error = nullptr;
  hipGraphExecUpdateResult result;
  double unchanged =
      median_us(reps, [&] { CHECK(hipGraphExecUpdate(big_exec, big, &error, &result)); });
  int* other_counter = nullptr;
  CHECK(hipMalloc(&other_counter, sizeof(int)));
  std::vector<hipGraph_t> recaptured;
  for (int r = 0; r < reps; ++r)
    recaptured.push_back(capture_chain(s, r % 2 ? counter : other_counter, kBig));
  size_t next = 0;
  double all_changed = median_us(
      reps, [&] { CHECK(hipGraphExecUpdate(big_exec, recaptured[next++], &error, &result)); });
  rows.push_back({"hipGraphExecUpdate, 8192 nodes, nothing changed", unchanged / 1000.0, "ms",
                  "target ≤ 1 ms"});
  rows.push_back({"hipGraphExecUpdate, 8192 nodes, every kernel changed", all_changed / 1000.0,
                  "ms", "target ≤ 5 ms"});

  // ---- 4. one-node SetParams ----
  hipGraphNode_t first = nodes_of(chain)[0];
  hipKernelNodeParams params{};
  CHECK(hipGraphKernelNodeGetParams(first, &params));
  int* target = counter;
  void* args[] = {&target};
  params.kernelParams = args;
  const int calls = quick ? 10000 : 100000;
  double setparams = median_us(
                         reps,
                         [&] {
    for (int i = 0; i < calls; ++i) {
      target = (i & 1) ? counter : other_counter;
      CHECK(hipGraphExecKernelNodeSetParams(chain_exec, first, &params));
    }
                         }) /
      calls;
  rows.push_back({"hipGraphExecKernelNodeSetParams, one node", setparams, "µs", ""});

  // ---- report ----
  std::printf("bench_graphs on device %d: %s (%s), %d compute units\n\n", device, props.name,
              props.gcnArchName, props.multiProcessorCount);
  std::printf("| measurement | value | note |\n|---|---|---|\n");
  for (const Row& r : rows)
    std::printf("| %s | %.3f %s | %s |\n", r.what.c_str(), r.value, r.unit.c_str(), r.note.c_str());

  for (hipGraph_t g : recaptured) CHECK(hipGraphDestroy(g));
  CHECK(hipGraphExecDestroy(big_exec));
  CHECK(hipGraphExecDestroy(chain_exec));
  CHECK(hipGraphDestroy(big));
  CHECK(hipGraphDestroy(chain));
  CHECK(hipFree(other_counter));
  CHECK(hipFree(counter));
  CHECK(hipStreamDestroy(s));
  return 0;
}
