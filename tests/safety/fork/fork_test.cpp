// SPDX-License-Identifier: MIT
// fork() and HIP. A child of a parent that already used weft must never hang:
// every HIP call there returns hipErrorNotInitialized at once. A child forked
// before the parent's first HIP call initialises weft itself and works. Each
// child runs under an alarm() watchdog (a hang ends it with SIGALRM) and reports
// through a pipe; the parent checks.
#include "hip_test.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>

namespace {

__global__ void fill(int* out, int n, int base) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = base + i;
}

constexpr int kN = 512;

// What a child saw, written to the pipe as one block.
struct Report {
  int malloc_rc = -1, memcpy_rc = -1, launch_rc = -1, sync_rc = -1, free_rc = -1;
  int values_ok = 0;
};

// The calls the brief names; runs in the child.
Report run_hip_calls() {
  Report r;
  int* d = nullptr;
  r.malloc_rc = hipMalloc(&d, kN * sizeof(int));
  std::vector<int> host(kN, -1);
  hipLaunchKernelGGL(fill, dim3(2), dim3(256), 0, 0, d, kN, 7);
  r.launch_rc = hipGetLastError();
  r.sync_rc = hipDeviceSynchronize();
  r.memcpy_rc = hipMemcpy(host.data(), d, kN * sizeof(int), hipMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < kN; ++i) ok = ok && host[i] == 7 + i;
  r.values_ok = ok;
  r.free_rc = d ? hipFree(d) : hipSuccess;
  return r;
}

// Forks a child that runs the calls under a watchdog; the parent collects the report.
Report in_child(int* status_out) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    alarm(20);  // a hang becomes SIGALRM, which the parent sees
    Report r = run_hip_calls();
    ssize_t w = ::write(fds[1], &r, sizeof(r));
    _exit(w == ssize_t(sizeof(r)) ? 0 : 3);
  }
  ::close(fds[1]);
  Report r;
  ssize_t got = ::read(fds[0], &r, sizeof(r));
  ::close(fds[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  *status_out = status;
  INFO("child status " << status << (WIFSIGNALED(status) ? " (signal " : " (exit ")
                       << (WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status)) << ")");
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE(got == ssize_t(sizeof(r)));
  return r;
}

}  // namespace

// Declared first, so it runs first (Catch2 keeps declaration order): the binary
// uses the support main without device setup, so no HIP call has been made yet.
TEST_CASE("Safety_fork_BeforeFirstHipCall_ChildWorks") {
  int status = 0;
  Report r = in_child(&status);
  if (r.malloc_rc == hipErrorNotInitialized) {
    hip_test::skip("this process had called HIP before this test case (run it alone or first)");
    return;
  }
  CHECK(r.malloc_rc == hipSuccess);
  CHECK(r.launch_rc == hipSuccess);
  CHECK(r.sync_rc == hipSuccess);
  CHECK(r.memcpy_rc == hipSuccess);
  CHECK(r.values_ok == 1);
  CHECK(r.free_rc == hipSuccess);
}

TEST_CASE("Safety_fork_AfterInit_ChildFailsAtOnce") {
  // The parent initialises weft and runs a kernel, so the agent's threads exist.
  HIP_CHECK(hipSetDevice(hip_test::device()));
  hip_test::DeviceBuffer<int> buffer(kN);
  hipLaunchKernelGGL(fill, dim3(2), dim3(256), 0, 0, buffer.get(), kN, 1);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());

  int status = 0;
  Report r = in_child(&status);
  CHECK(r.malloc_rc == hipErrorNotInitialized);
  CHECK(r.launch_rc == hipErrorNotInitialized);
  CHECK(r.sync_rc == hipErrorNotInitialized);
  CHECK(r.memcpy_rc == hipErrorNotInitialized);
  CHECK(r.values_ok == 0);

  // The parent is unaffected.
  std::vector<int> host(kN);
  hipLaunchKernelGGL(fill, dim3(2), dim3(256), 0, 0, buffer.get(), kN, 3);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(host.data(), buffer.get(), kN * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) REQUIRE(host[i] == 3 + i);
}
