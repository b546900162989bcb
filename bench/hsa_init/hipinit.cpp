// SPDX-License-Identifier: MIT
// hipInit on this machine with the AMD GPU driver built in (issue 6). Each
// measurement runs in a fresh child process (hipInit happens once per process):
//   hipinit   hipInit through libamdhip64 (every driver's discovery included)
//   rocr      what the AMD driver avoids when /dev/kfd is absent: dlopen of
//             libhsa-runtime64.so.1 plus its hsa_init
// Prints min / median / max in milliseconds over the runs (argv[1], default 21).
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double measure_hipinit() {
  auto t0 = Clock::now();
  hipError_t e = hipInit(0);
  double ms = ms_since(t0);
  return e == hipSuccess ? ms : -1;
}

double measure_rocr() {
  auto t0 = Clock::now();
  void* lib = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return -1;
  auto init = reinterpret_cast<int (*)()>(dlsym(lib, "hsa_init"));
  if (init) (void)init();
  return ms_since(t0);
}

// Runs `f` in `runs` child processes; returns the sorted results (negative: failed).
std::vector<double> in_children(double (*f)(), int runs) {
  std::vector<double> out;
  for (int i = 0; i < runs; ++i) {
    int fds[2];
    if (pipe(fds) != 0) break;
    pid_t pid = fork();
    if (pid == 0) {
      double v = f();
      (void)!write(fds[1], &v, sizeof(v));
      _exit(0);
    }
    close(fds[1]);
    double v = -1;
    if (read(fds[0], &v, sizeof(v)) != sizeof(v)) v = -1;
    close(fds[0]);
    waitpid(pid, nullptr, 0);
    out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void report(const char* name, const std::vector<double>& v) {
  if (v.empty() || v.front() < 0) {
    std::printf("%-8s unavailable\n", name);
    return;
  }
  std::printf("%-8s min %.3f ms  median %.3f ms  max %.3f ms  (%zu runs)\n", name, v.front(),
              v[v.size() / 2], v.back(), v.size());
}

}  // namespace

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 21;
  std::printf("/dev/kfd %s\n", access("/dev/kfd", F_OK) == 0 ? "present" : "absent");
  report("hipinit", in_children(measure_hipinit, runs));
  report("rocr", in_children(measure_rocr, runs));
  return 0;
}
