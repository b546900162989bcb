// SPDX-License-Identifier: MIT
// bench/trace: what the WEFT_TRACE timeline costs (docs/trace.md). One run, one
// table: the launch cost of an empty kernel with tracing off (this process), and
// with it on (a child started with WEFT_TRACE set, since weft reads it when the
// library loads), the cost per recorded event, and the cost of writing the file.
// Not a test: it asserts nothing about time.
//
//   build/bench/trace/bench_trace [batches=21] [--off-only]
//
// --off-only prints only the tracing-off rows: run the same binary against
// another build's library (LD_LIBRARY_PATH=<build>/src) to compare the
// tracing-off cost with a build without the trace hooks (bench/RESULTS.md).
#include <hip/hip_runtime.h>

#include "../support/hip_check.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

__global__ void empty_kernel() {}

constexpr int kLaunchesPerBatch = 1000;
constexpr int kSyncsPerBatch = 200;

// Medians over batches; the minimum of the submit cost too, the figure least
// disturbed by other load on a shared machine.
struct Figures {
  double submit_us = 0;  // async launch: time in hipLaunchKernelGGL, per call
  double submit_min_us = 0;
  double total_us = 0;  // async launch: submit + run, per kernel (batch then sync)
  double sync_us = 0;   // launch + hipStreamSynchronize, per round
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

Figures measure(int batches, hipStream_t stream) {
  std::vector<double> submit, total, sync;
  for (int b = 0; b <= batches; ++b) {  // batch 0 warms up
    auto t0 = Clock::now();
    for (int i = 0; i < kLaunchesPerBatch; ++i)
      hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, stream);
    auto t1 = Clock::now();
    CHECK(hipStreamSynchronize(stream));
    auto t2 = Clock::now();
    for (int i = 0; i < kSyncsPerBatch; ++i) {
      hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, stream);
      CHECK(hipStreamSynchronize(stream));
    }
    auto t3 = Clock::now();
    if (b == 0) continue;
    auto us = [](auto d) { return std::chrono::duration<double, std::micro>(d).count(); };
    submit.push_back(us(t1 - t0) / kLaunchesPerBatch);
    total.push_back(us(t2 - t0) / kLaunchesPerBatch);
    sync.push_back(us(t3 - t2) / kSyncsPerBatch);
  }
  CHECK(hipGetLastError());
  return Figures{median(submit), *std::min_element(submit.begin(), submit.end()), median(total),
                 median(sync)};
}

// The child: traced figures on one line, then the time hipProfilerStop takes to
// write everything recorded.
int child(int batches) {
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  Figures f = measure(batches, stream);
  auto t0 = Clock::now();
  CHECK(hipProfilerStop());
  double write_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  CHECK(hipStreamDestroy(stream));
  std::printf("%.6f %.6f %.6f %.6f %.3f\n", f.submit_us, f.submit_min_us, f.total_us, f.sync_us,
              write_ms);
  return 0;
}

bool run_traced_child(const char* self, int batches, Figures& f, double& write_ms,
                      std::string& path) {
  path = "/tmp/weft-bench-trace-" + std::to_string(getpid()) + ".json";
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "WEFT_TRACE", 10) != 0) env_text.emplace_back(*e);
  env_text.push_back("WEFT_TRACE=" + path);
  std::vector<char*> envp;
  for (auto& s : env_text) envp.push_back(s.data());
  envp.push_back(nullptr);
  int fds[2];
  if (pipe(fds) != 0) return false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::string arg0 = self, arg1 = std::to_string(batches), arg2 = "--child";
  char* argv[] = {arg0.data(), arg1.data(), arg2.data(), nullptr};
  pid_t pid;
  int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) return false;
  std::string out;
  char buf[256];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
  return std::sscanf(out.c_str(), "%lf %lf %lf %lf %lf", &f.submit_us, &f.submit_min_us,
                     &f.total_us, &f.sync_us, &write_ms) == 5;
}

}  // namespace

int main(int argc, char** argv) {
  int batches = argc > 1 && argv[1][0] != '-' ? std::max(1, std::atoi(argv[1])) : 21;
  bool off_only = false, is_child = false;
  for (int i = 1; i < argc; ++i) {
    off_only |= std::strcmp(argv[i], "--off-only") == 0;
    is_child |= std::strcmp(argv[i], "--child") == 0;
  }
  if (is_child) return child(batches);

  hipDeviceProp_t props;
  CHECK(hipGetDeviceProperties(&props, 0));
  std::printf("device 0: %s; median of %d batches (%d async launches, %d launch+sync each)\n\n",
              props.name, batches, kLaunchesPerBatch, kSyncsPerBatch);
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  Figures off = measure(batches, stream);
  CHECK(hipStreamDestroy(stream));

  std::printf("| %-40s | %12s | %12s | %12s |\n", "empty kernel, 1 thread", "trace off", "trace on",
              "on - off");
  std::printf("|%s|%s|%s|%s|\n", std::string(42, '-').c_str(), std::string(14, '-').c_str(),
              std::string(14, '-').c_str(), std::string(14, '-').c_str());
  Figures on;
  double write_ms = 0;
  std::string path;
  bool traced = !off_only && run_traced_child(argv[0], batches, on, write_ms, path);
  auto row = [&](const char* what, double a, double b) {
    if (traced) std::printf("| %-40s | %9.3f us | %9.3f us | %9.3f us |\n", what, a, b, b - a);
    else std::printf("| %-40s | %9.3f us | %12s | %12s |\n", what, a, "-", "-");
  };
  row("async launch, submit cost each", off.submit_us, on.submit_us);
  row("async launch, submit cost (min batch)", off.submit_min_us, on.submit_min_us);
  row("async launch, throughput each", off.total_us, on.total_us);
  row("launch + stream sync", off.sync_us, on.sync_us);
  if (traced) {
    // Per launch: an API slice and a kernel slice (plus its flow); the sync adds one more slice.
    long events =
        long(batches + 1) * (2L * (kLaunchesPerBatch + kSyncsPerBatch) + kSyncsPerBatch + 1);
    std::printf(
        "\nrecording: %.3f us per event on the submitting thread (async submit delta / 2 events "
        "per launch: API slice, kernel slice + flow)\n",
        (on.submit_us - off.submit_us) / 2);
    std::printf("writing: %ld events in %.1f ms at hipProfilerStop = %.3f us per event\n", events,
                write_ms, write_ms * 1000 / double(events));
    std::remove(path.c_str());
  } else if (!off_only) {
    std::printf("\n(the traced child failed)\n");
  }
  return 0;
}
