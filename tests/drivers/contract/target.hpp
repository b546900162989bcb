// SPDX-License-Identifier: MIT
// The driver under test of one contract-suite executable (IREE's CTS idea:
// one suite, written once against include/weft/driver, run per driver).
// contract_test.cpp holds the checks; each target_<name>.cpp defines target()
// for one driver: how to make it (installing a test double first where the
// hardware is absent) and what that double cannot do, with the reason each
// affected check prints as "SKIPPED: ...".
#ifndef WEFT_TESTS_DRIVERS_CONTRACT_TARGET_HPP
#define WEFT_TESTS_DRIVERS_CONTRACT_TARGET_HPP

#include <weft/driver/device.hpp>

#include <functional>
#include <memory>
#include <string>

namespace contract {

// An op that makes a queue fail asynchronously (a faulting kernel), and the
// error the queue's synchronize() must then report, again and again.
struct FailingOp {
  weft::Op op;
  hipError_t error = hipSuccess;
};

struct Target {
  std::string name;  // "null", "cpu", "cuda-fake", "cuda", "hsa-fake"
  // Non-empty: the target cannot run here (e.g. the real libcuda was not asked
  // for); every check skips with this reason.
  std::string unavailable;
  // True when devices() must find agents (drivers on doubles, the CPU); false
  // where absent hardware is a reason to skip (a real GPU).
  bool must_have_agents = true;
  // Installs the double (first call only, if any) and makes the driver. Called
  // once for the shared agents of all checks (whose devices() is called once,
  // as the core does), and once more by the sticky-error check, whose fault may
  // poison a whole device as a GPU fault does.
  std::function<std::unique_ptr<weft::Driver>()> make_driver;
  // Non-empty: event timing cannot be checked on this target, and why.
  std::string no_elapsed_time;
  // An asynchronously failing op for `device`; a Status saying why there is
  // none (the sticky-error check then skips with that message).
  std::function<weft::Result<FailingOp>(weft::Device& device)> failing_op;
};

// Defined once per executable, by its target_<name>.cpp.
const Target& target();

}  // namespace contract

#endif  // WEFT_TESTS_DRIVERS_CONTRACT_TARGET_HPP
