// SPDX-License-Identifier: MIT
// Contract target: the null driver (drivers/null), with two agents so the
// cross-device checks run. Also checks the driver's registration rule, which
// only the null driver has: no agents unless WEFT_NULL_DRIVER asks.
#include <cstdlib>

#include "driver.hpp"
#include "hip_test.hpp"
#include "target.hpp"

namespace contract {

const Target& target() {
  static const Target t = [] {
    Target made;
    made.name = "null";
    made.make_driver = [] { return weft::null::make_driver_with_agents(2); };
    made.failing_op = [](weft::Device&) -> weft::Result<FailingOp> {
      return weft::Status(
          hipErrorNotSupported,
          "the null driver runs every op inside submit(), so its failures are synchronous "
          "(returned by submit()): no asynchronous error exists to stick");
    };
    return made;
  }();
  return t;
}

}  // namespace contract

namespace {

// Runs with WEFT_NULL_DRIVER set to `value` (nullptr: unset), then restores it.
std::vector<weft::Ref<weft::Device>> agents_with(const char* value, std::string& note) {
  const char* old = std::getenv("WEFT_NULL_DRIVER");
  std::string saved = old ? old : "";
  if (value) setenv("WEFT_NULL_DRIVER", value, 1);
  else unsetenv("WEFT_NULL_DRIVER");
  auto driver = weft::null::make_driver();
  auto agents = driver->devices();
  note = driver->status_note();
  if (old) setenv("WEFT_NULL_DRIVER", saved.c_str(), 1);
  else unsetenv("WEFT_NULL_DRIVER");
  return agents;
}

}  // namespace

TEST_CASE("Null_Registration_NoAgentsUnlessAsked") {
  std::string note;
  CHECK(agents_with(nullptr, note).empty());
  CHECK(note.find("WEFT_NULL_DRIVER=1") != std::string::npos);
  CHECK(agents_with("0", note).empty());
  CHECK(agents_with("yes", note).empty());
  CHECK(note.find("not a count") != std::string::npos);
  CHECK(agents_with("17", note).empty());
  CHECK(agents_with("1", note).size() == 1);
  CHECK(agents_with("3", note).size() == 3);
  CHECK(note.find("3 null agent") != std::string::npos);
}
