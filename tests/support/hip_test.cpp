// SPDX-License-Identifier: MIT
// Implementation of the conformance test helpers declared in hip_test.hpp.
#include "hip_test.hpp"

#include "fault_isolation.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <set>
#include <thread>

extern char** environ;

namespace hip_test {
namespace detail {

// Names of the test cases that called skip(); read by test_main.cpp.
std::set<std::string>& skipped_cases() {
  static std::set<std::string> cases;
  return cases;
}

std::mutex& skipped_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace detail

namespace {

// About 3-10 s of spinning on current CPUs: far longer than any correct test needs, short
// enough that a runtime which runs launches synchronously fails instead of hanging.
constexpr long long kGateMaxSpins = 10'000'000'000LL;

// The host opens the gate from another thread: atomics, not volatile (ThreadSanitizer
// reported the volatile reads as a data race, rightly). A GPU image (weftcc's sm_*/gfx*
// passes) reads and writes the host's pinned flags through volatile accesses with
// system-scope fences around them: that is how PTX sees another agent's stores. Each
// such read crosses the bus (about a microsecond), so the bound is a thousandth.
__global__ void gate_kernel(volatile int* flags, long long max_spins) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
#if defined(__HIP_DEVICE_COMPILE__) && (defined(__NVPTX__) || defined(__AMDGCN__))
    flags[2] = 1;
    __threadfence_system();
    long long spins = 0;
    while (flags[0] == 0 && spins < max_spins / 1000) ++spins;
    __threadfence_system();
    const int opened = flags[0];
    flags[1] = opened != 0 ? Gate::kReleased : Gate::kTimedOut;
    __threadfence_system();
#else
    int* f = const_cast<int*>(flags);
    __atomic_store_n(&f[2], 1, __ATOMIC_SEQ_CST);
    long long spins = 0;
    while (__atomic_load_n(&f[0], __ATOMIC_ACQUIRE) == 0 && spins < max_spins) ++spins;
    const int opened = __atomic_load_n(&f[0], __ATOMIC_ACQUIRE);
    __atomic_store_n(&f[1], opened != 0 ? Gate::kReleased : Gate::kTimedOut, __ATOMIC_SEQ_CST);
#endif
  }
}

__global__ void probe_kernel(int* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *out = 42;
}

}  // namespace

int device() {
  static const int ordinal = [] {
    const char* env = std::getenv("WEFT_TEST_DEVICE");
    return (env != nullptr && *env != '\0') ? std::atoi(env) : 0;
  }();
  return ordinal;
}

void skip(const std::string& reason) {
  WARN("SKIPPED: " << reason);
  const std::string name = Catch::getResultCapture().getCurrentTestName();
  std::lock_guard<std::mutex> lock(detail::skipped_mutex());
  detail::skipped_cases().insert(name);
}

const hipDeviceProp_t& props() {
  static hipDeviceProp_t p{};
  static bool loaded = false;
  if (!loaded) {
    HIP_CHECK(hipGetDeviceProperties(&p, device()));
    loaded = true;
  }
  return p;
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

namespace {
bool cpu_agent_recovers() {
  const std::string arch = props().gcnArchName;
  return arch == "x86_64" || arch == "aarch64";
}
}  // namespace

bool device_recovers_from_faults() {
  if (const char* forced = std::getenv("WEFT_TEST_ISOLATE"); forced != nullptr && *forced != '\0')
    return std::strcmp(forced, "0") == 0;
  return cpu_agent_recovers();
}

void reset_after_fault(hipError_t fault) {
  if (cpu_agent_recovers()) {  // isolation forced on the CPU agent: the reset recovers
    HIP_CHECK(hipDeviceReset());
    return;
  }
  HIP_CHECK_ERROR(hipDeviceReset(), fault);
  void* p = nullptr;
  HIP_CHECK_ERROR(hipMalloc(&p, 4), fault);
}

namespace {

constexpr char kIsolatedCaseEnv[] = "WEFT_TEST_ISOLATED_CASE";
// Bounds the wait for a child (a hung child fails the case instead of the whole binary).
constexpr int kChildTimeoutS = 300;

// A Catch2 test spec that names exactly `name` (its special characters escaped).
std::string exact_test_spec(const std::string& name) {
  std::string spec;
  for (char c : name) {
    if (std::strchr("\\,[]*\"~", c) != nullptr) spec += '\\';
    spec += c;
  }
  return spec;
}

}  // namespace

bool ran_isolated() {
  const std::string name = Catch::getResultCapture().getCurrentTestName();
  // Reads (and caches) the device's properties now: after the fault every call fails,
  // hipGetDeviceProperties too, and the case still asks device_recovers_from_faults().
  (void)props();
  const bool recovers = device_recovers_from_faults();
  if (const char* child = std::getenv(kIsolatedCaseEnv); child != nullptr && name == child)
    return false;  // this is the child: run the case
  if (recovers) return false;

  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, kIsolatedCaseEnv, sizeof(kIsolatedCaseEnv) - 1) != 0)
      env_text.emplace_back(*e);
  env_text.push_back(std::string(kIsolatedCaseEnv) + "=" + name);
  std::vector<char*> envp;
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string exe = "/proc/self/exe", spec = exact_test_spec(name);
  char* argv[] = {exe.data(), spec.data(), nullptr};

  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, envp.data());
  INFO("the case faults the device, whose faults are sticky: it runs in a child process");
  if (spawned != 0) FAIL("posix_spawn(/proc/self/exe) failed: " << std::strerror(spawned));

  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kChildTimeoutS);
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) FAIL("waitpid failed: " << std::strerror(errno));
    if (std::chrono::steady_clock::now() > deadline) {
      (void)kill(pid, SIGKILL);
      (void)waitpid(pid, &status, 0);
      FAIL("the child running " << name << " did not finish in " << kChildTimeoutS << " s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFSIGNALED(status))
    FAIL("the child running " << name << " died of signal " << WTERMSIG(status));
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 77) {
    skip("the child process skipped " + name);
    return true;
  }
  INFO("the child's exit status is its count of failed cases (its output is above)");
  REQUIRE(code == 0);
  return true;
}

bool kernels_supported() {
  // -1 unknown, 0 no, 1 yes. Probed once per process on the device under test.
  static int supported = -1;
  static std::string reason;
  if (supported < 0) {
    int* out = nullptr;
    HIP_CHECK(hipHostMalloc(reinterpret_cast<void**>(&out), sizeof(int), 0));
    *out = 0;
    (void)hipGetLastError();
    hipLaunchKernelGGL(probe_kernel, dim3(1), dim3(1), 0, 0, out);
    const hipError_t launch = hipGetLastError();
    if (launch == hipErrorNoBinaryForGpu || launch == hipErrorInvalidDeviceFunction ||
        launch == hipErrorNotSupported) {
      supported = 0;
      reason = std::string("device ") + std::to_string(device()) +
               " cannot run single-source kernels built by the host compiler (launch returned " +
               hipGetErrorName(launch) + ")";
    } else {
      // Any other failure is a real bug: report it instead of skipping.
      HIP_CHECK(launch);
      HIP_CHECK(hipDeviceSynchronize());
      REQUIRE(*out == 42);
      supported = 1;
    }
    HIP_CHECK(hipHostFree(out));
  }
  if (supported == 0) {
    skip(reason);
    return false;
  }
  return true;
}

Gate::Gate() {
  void* p = nullptr;
  HIP_CHECK(hipHostMalloc(&p, 4 * sizeof(int), 0));
  flags_ = static_cast<volatile int*>(p);
  for (int i = 0; i < 4; ++i) flags_[i] = 0;
}

Gate::~Gate() {
  if (flags_ == nullptr) return;
  open();
  (void)hipDeviceSynchronize();
  (void)hipHostFree(const_cast<int*>(flags_));
}

void Gate::launch(hipStream_t stream) {
  HIP_LAUNCH_CHECK(gate_kernel, dim3(1), dim3(1), 0, stream, flags_, kGateMaxSpins);
}

void Gate::open() { __atomic_store_n(const_cast<int*>(flags_), 1, __ATOMIC_SEQ_CST); }

bool Gate::started() const {
  return __atomic_load_n(const_cast<int*>(flags_) + 2, __ATOMIC_SEQ_CST) != 0;
}

bool Gate::wait_started(int timeout_ms) const {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!started()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

int Gate::state() const { return __atomic_load_n(const_cast<int*>(flags_) + 1, __ATOMIC_SEQ_CST); }

}  // namespace hip_test
