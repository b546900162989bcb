// SPDX-License-Identifier: MIT
// bench/cpu_engine: the CPU agent's queue, one process run (issues 15 and 18). Prints one
// "key value" line per figure, so that many process runs can be summed up by a script:
//
//   launch_sync_us       empty kernel launch + hipDeviceSynchronize, median of 2000
//                        (bench_cpu_kernels' row "empty kernel launch + sync")
//   stream_sync_us       the same with hipStreamSynchronize on a created stream
//   submit_us / throughput_us
//                        20000 async empty launches: submit cost each, and each until
//                        hipDeviceSynchronize returned (bench_cpu_kernels' async rows)
//   replay_node_us       a captured chain of 100 one-block kernels (bench_graphs' `tick`,
//                        32 threads), 200 replays each waited for, median of 15 runs, per node
//                        (bench_graphs' row "100-kernel chain, graph replay, per node")
//   replay_launch_us / replay_wait_us
//                        a further 200 replays with hipGraphLaunch and hipStreamSynchronize
//                        timed apart (median per replay): where a slow replay's time goes
//   replay_switches / sync_switches / async_switches
//                        context switches of all the process's threads (voluntary +
//                        involuntary, /proc/self/task/*/status) per replay, per launch +
//                        sync and per async launch: a thread that went to sleep and was
//                        woken costs at least one
//
// Not a test: it asserts nothing about time.   bench_cpu_queue [--quick]
#include <hip/hip_runtime.h>

#include "../support/cpu_agent.hpp"
#include "../support/hip_check.hpp"

#include <dirent.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

__global__ void empty_kernel() {}

__global__ void tick(int* counter) {
  if (threadIdx.x == 0) ++*counter;
}

double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Context switches so far, summed over the process's threads.
long long context_switches() {
  long long total = 0;
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return -1;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    std::ifstream status(std::string("/proc/self/task/") + entry->d_name + "/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("voluntary_ctxt_switches:", 0) == 0 ||
          line.rfind("nonvoluntary_ctxt_switches:", 0) == 0)
        total += std::atoll(line.c_str() + line.find(':') + 1);
    }
  }
  closedir(dir);
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  hipDeviceProp_t props{};
  select_cpu_agent(props);

  // Empty launch + sync.
  {
    const int reps = quick ? 200 : 2000;
    for (int i = 0; i < 100; ++i) {  // warm up: threads, argument pools
      hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, 0);
      CHECK(hipDeviceSynchronize());
    }
    std::vector<double> t;
    long long before = context_switches();
    for (int i = 0; i < reps; ++i) {
      auto s = Clock::now();
      hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, 0);
      CHECK(hipDeviceSynchronize());
      t.push_back(us_since(s));
    }
    long long switches = context_switches() - before;
    std::printf("launch_sync_us %.3f\n", median(t));
    std::printf("sync_switches %.3f\n", static_cast<double>(switches) / reps);
    hipStream_t stream = nullptr;
    CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
    t.clear();
    for (int i = 0; i < reps; ++i) {
      auto s = Clock::now();
      hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, stream);
      CHECK(hipStreamSynchronize(stream));
      t.push_back(us_since(s));
    }
    std::printf("stream_sync_us %.3f\n", median(t));
    CHECK(hipStreamDestroy(stream));
  }

  // Async launches (bench_cpu_kernels' two rows, same loop).
  {
    const int reps = quick ? 2000 : 20000;
    CHECK(hipDeviceSynchronize());
    long long before = context_switches();
    auto s = Clock::now();
    for (int i = 0; i < reps; ++i) hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, 0);
    double submit = us_since(s) / reps;
    CHECK(hipDeviceSynchronize());
    double total = us_since(s) / reps;
    long long switches = context_switches() - before;
    std::printf("submit_us %.3f\nthroughput_us %.3f\n", submit, total);
    std::printf("async_switches %.4f\n", static_cast<double>(switches) / reps);
  }

  // Graph replay (bench_graphs' first section, same loop).
  {
    constexpr int kChain = 100;
    const int chains = quick ? 20 : 200, reps = quick ? 3 : 15;
    hipStream_t s = nullptr;
    CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    int* counter = nullptr;
    CHECK(hipMalloc(&counter, sizeof(int)));
    CHECK(hipMemset(counter, 0, sizeof(int)));
    CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    for (int i = 0; i < kChain; ++i) hipLaunchKernelGGL(tick, dim3(1), dim3(32), 0, s, counter);
    hipGraph_t graph = nullptr;
    CHECK(hipStreamEndCapture(s, &graph));
    hipGraphExec_t exec = nullptr;
    CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
    for (int w = 0; w < 20; ++w) {
      for (int i = 0; i < kChain; ++i) hipLaunchKernelGGL(tick, dim3(1), dim3(32), 0, s, counter);
      CHECK(hipGraphLaunch(exec, s));
    }
    CHECK(hipStreamSynchronize(s));
    std::vector<double> runs;
    for (int r = 0; r < reps; ++r) {
      auto t0 = Clock::now();
      for (int c = 0; c < chains; ++c) {
        CHECK(hipGraphLaunch(exec, s));
        CHECK(hipStreamSynchronize(s));
      }
      runs.push_back(us_since(t0));
    }
    std::printf("replay_node_us %.4f\n", median(runs) / (chains * kChain));
    std::vector<double> launch, wait;
    long long before = context_switches();
    for (int c = 0; c < chains; ++c) {
      auto t0 = Clock::now();
      CHECK(hipGraphLaunch(exec, s));
      auto t1 = Clock::now();
      CHECK(hipStreamSynchronize(s));
      launch.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      wait.push_back(us_since(t1));
    }
    long long switches = context_switches() - before;
    std::printf("replay_launch_us %.3f\nreplay_wait_us %.3f\n", median(launch), median(wait));
    std::printf("replay_switches %.3f\n", static_cast<double>(switches) / chains);
    CHECK(hipGraphExecDestroy(exec));
    CHECK(hipGraphDestroy(graph));
    CHECK(hipFree(counter));
    CHECK(hipStreamDestroy(s));
  }
  return 0;
}
