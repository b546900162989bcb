// SPDX-License-Identifier: MIT
// Catch2 main for the conformance binaries.
//
// - Makes hip_test::device() current on the main thread before each test case and clears the
//   last error, unless the binary is built with HIP_TEST_NO_DEVICE_SETUP (the init tests,
//   which must find the runtime uninitialised).
// - Exits 77 (meson: SKIP) when every test case that ran called hip_test::skip(), so a
//   skipped binary never reports as passed.
#define CATCH_CONFIG_RUNNER
#include "hip_test.hpp"

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

namespace hip_test::detail {
std::set<std::string>& skipped_cases();
std::mutex& skipped_mutex();
}  // namespace hip_test::detail

namespace {

std::set<std::string>& ran_cases() {
  static std::set<std::string> cases;
  return cases;
}

struct SkipTracker : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;

  void testCaseStarting(Catch::TestCaseInfo const& info) override {
    ran_cases().insert(info.name);
#ifndef HIP_TEST_NO_DEVICE_SETUP
    (void)hipSetDevice(hip_test::device());
    (void)hipGetLastError();
#endif
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(SkipTracker)

int main(int argc, char** argv) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;

#ifndef HIP_TEST_NO_DEVICE_SETUP
  const bool listing = session.configData().listTests || session.configData().listTestNamesOnly ||
                       session.configData().listTags || session.configData().listReporters;
  if (!listing) {
    int count = 0;
    const hipError_t err = hipGetDeviceCount(&count);
    if (err != hipSuccess || hip_test::device() < 0 || hip_test::device() >= count) {
      std::fprintf(stderr,
                   "conformance: device %d (WEFT_TEST_DEVICE) is not available: "
                   "hipGetDeviceCount returned %s, count %d\n",
                   hip_test::device(), hipGetErrorName(err), count);
      return 1;
    }
    if (hipSetDevice(hip_test::device()) != hipSuccess) {
      std::fprintf(stderr, "conformance: hipSetDevice(%d) failed\n", hip_test::device());
      return 1;
    }
    hipDeviceProp_t props{};
    if (hipGetDeviceProperties(&props, hip_test::device()) == hipSuccess) {
      std::fprintf(stderr, "conformance: testing device %d (%s, %s)\n", hip_test::device(),
                   props.name, props.gcnArchName);
    }
  }
#endif

  const int failures = session.run();
  if (failures != 0) return failures;

  std::size_t skipped = 0;
  {
    std::lock_guard<std::mutex> lock(hip_test::detail::skipped_mutex());
    for (const auto& name : ran_cases()) skipped += hip_test::detail::skipped_cases().count(name);
  }
  if (skipped > 0) {
    std::fprintf(stderr, "conformance: %zu of %zu test cases skipped\n", skipped,
                 ran_cases().size());
  }
  if (!ran_cases().empty() && skipped == ran_cases().size()) return 77;
  return 0;
}
