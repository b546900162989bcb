// SPDX-License-Identifier: MIT
// Driver: the entry point of a driver. The core calls the factory once, then
// devices() once during initialization, and keeps the Driver alive for the
// process. Template notes (what every driver must guarantee) are marked
// "Contract:".
#include "driver.hpp"

#include "device.hpp"

#include <cstdlib>
#include <string>

namespace weft::null {
namespace {

constexpr int kMaxAgents = 16;

// WEFT_NULL_DRIVER: how many null agents to report. Read here, not in the
// runtime's settings table, so that the driver depends on nothing outside
// include/ (a real driver reads its vendor's variables the same way, or gets
// them from the shared settings library once it exists).
int requested_agents(std::string& note) {
  const char* text = std::getenv("WEFT_NULL_DRIVER");
  if (!text || !*text) {
    note = "off (set WEFT_NULL_DRIVER=1 for a null agent; tests only)";
    return 0;
  }
  char* end = nullptr;
  long n = std::strtol(text, &end, 10);
  if (*end != '\0' || n < 0 || n > kMaxAgents) {
    note = std::string("off: WEFT_NULL_DRIVER=") + text + " is not a count from 0 to " +
           std::to_string(kMaxAgents);
    return 0;
  }
  if (n == 0) note = "off (WEFT_NULL_DRIVER=0)";
  return static_cast<int>(n);
}

class NullDriver final : public Driver {
 public:
  // agent_count < 0: ask the environment when devices() is called.
  explicit NullDriver(int agent_count) : agent_count_(agent_count) {}

  // Contract: a short lower-case name, used in logs and hip-smi.
  std::string_view name() const override { return "null"; }

  // Contract: called once. Returns every agent this driver drives, or an empty
  // list (never an error) when the hardware or vendor library is missing, with
  // the reason kept for status_note(). Must not crash or print when absent:
  // every program runs this at hipInit.
  std::vector<Ref<Device>> devices() override {
    int count = agent_count_ >= 0 ? agent_count_ : requested_agents(note_);
    std::vector<Ref<Device>> agents;
    for (int ordinal = 0; ordinal < count; ++ordinal)
      agents.push_back(Ref<Device>(make_ref<NullDevice>(ordinal)));
    if (count > 0) note_ = std::to_string(count) + " null agent(s): host memory, ops run at submit";
    return agents;
  }

  // Contract: one line saying what was found, or why nothing was.
  std::string status_note() const override { return note_; }

 private:
  const int agent_count_;
  std::string note_ = "devices() not called yet";
};

}  // namespace

std::unique_ptr<Driver> make_driver() { return std::make_unique<NullDriver>(-1); }

std::unique_ptr<Driver> make_driver_with_agents(int agent_count) {
  return std::make_unique<NullDriver>(agent_count < 0 ? 0 : agent_count);
}

}  // namespace weft::null
